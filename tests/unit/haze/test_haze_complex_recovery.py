"""Complex actions under the table's recovery setting."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from services.dice import seeded_rng
from services.haze import ActionSpec, ComplexAction, HazeRules, Participant, play_round

EACH_ROUND = HazeRules(recovery="each_round", fumble_ends_complex=False)
REST = HazeRules(fumble_ends_complex=False)
SLOW = ActionSpec(ability=1)  # never reaches a difficulty of 100


def test_a_fed_back_round_keeps_going_when_points_come_back_every_round() -> None:
    """'If an AE rests for an entire round, doing nothing, he regains a number of exhaustion
    points equal to his relevant health score.' — under `recovery: each_round` every round
    is a fresh budget, so the one point a complex-action roll costs is back next round."""
    state, people = ComplexAction(difficulty=100), [Participant(spec=SLOW, points=1)]
    for _ in range(3):
        result = play_round(state, people, seeded_rng("r"), EACH_ROUND)
        state, people = result.action, result.participants
        assert result.rolls[0] is not None and people[0].points == 1
    assert (state.status, state.rounds) == ("in_progress", 3)


def test_the_pool_refills_to_the_health_score_when_it_is_given() -> None:
    """'he regains a number of exhaustion points equal to his relevant health score'"""
    tired = Participant(spec=SLOW, points=0, health=4)
    result = play_round(ComplexAction(difficulty=100), [tired, Participant(spec=SLOW, points=2)],
                        seeded_rng("h"), EACH_ROUND)  # fmt: skip
    assert result.rolls[0] is None  # nothing left this round
    assert [p.points for p in result.participants] == [4, 2]


def test_without_rest_the_same_fed_back_round_runs_out_of_points() -> None:
    """'or he has run out of exhaustion points'"""
    state, people = ComplexAction(difficulty=100), [Participant(spec=SLOW, points=1, health=4)]
    first = play_round(state, people, seeded_rng("r"), REST)
    assert first.participants[0].points == 0
    second = play_round(first.action, first.participants, seeded_rng("r"), REST)
    assert second.action.status == "exhausted"


def test_a_participant_never_holds_more_points_than_its_health() -> None:
    with pytest.raises(ValidationError):
        Participant(spec=SLOW, points=5, health=4)
