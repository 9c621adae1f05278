"""Complex actions and assists."""

from __future__ import annotations

import pytest

from services.dice import seeded_rng
from services.haze import (
    ActionSpec,
    ComplexAction,
    HazeRules,
    Participant,
    give_up,
    play_round,
    resolve,
    step,
)
from services.haze.errors import ComplexActionOver

LOCKSMITH = ActionSpec(ability=5, skill=4)


def test_the_lock_opens_at_a_cumulative_success_rate_of_twelve() -> None:
    """'he must achieve a difficulty of twelve in order to succeed; the player then adds his
    intelligence (Five) and his lock smithery skill (Four) which gives him a target of nine
    ... the AE keeps going until he has achieved a total cumulative success rate of twelve,
    then the door swings open.'"""
    lock = ComplexAction(difficulty=12)
    lock = step(lock, [resolve(LOCKSMITH, 4)])  # +5
    assert (lock.total, lock.status, lock.remaining) == (5, "in_progress", 7)
    lock = step(lock, [resolve(LOCKSMITH, 3)])  # +6
    assert lock.status == "in_progress"
    lock = step(lock, [resolve(LOCKSMITH, 8)])  # +1
    assert (lock.total, lock.rounds, lock.status) == (12, 3, "completed")


def test_failures_count_as_negative_success_rate() -> None:
    """'the success rate of each roll is added together (Failure is negative success rate)'"""
    lock = step(ComplexAction(difficulty=12), [resolve(ActionSpec(ability=5, skill=2), 9)])
    assert lock.total == -2


def test_a_fumble_ends_the_complex_action() -> None:
    """'provided he doesn't fumble his roll the AE keeps going'"""
    lock = step(ComplexAction(difficulty=12, total=10), [resolve(LOCKSMITH, 10)])
    assert lock.status == "fumbled"
    kept = step(
        ComplexAction(difficulty=12, total=10),
        [resolve(LOCKSMITH, 10)],
        HazeRules(fumble_ends_complex=False),
    )
    assert (kept.status, kept.total) == ("in_progress", 9)


def test_the_character_may_give_up() -> None:
    """'until the AE has achieved the difficulty given to him by the GM or he has run out of
    exhaustion points or indeed until he has given up!'"""
    assert give_up(ComplexAction(difficulty=12)).status == "given_up"


def test_a_finished_complex_action_takes_no_more_rounds() -> None:
    """'then the door swings open.'"""
    with pytest.raises(ComplexActionOver) as refused:
        step(ComplexAction(difficulty=3, total=3, status="completed"), [resolve(LOCKSMITH, 1)])
    assert refused.value.code == "complex_action_over"


def test_it_ends_when_exhaustion_points_run_out() -> None:
    """'or he has run out of exhaustion points'"""
    tired = Participant(spec=LOCKSMITH, points=0)
    result = play_round(ComplexAction(difficulty=12), [tired], seeded_rng("s"))
    assert result.action.status == "exhausted"
    assert result.rolls == [None]


def test_each_round_one_roll_costs_one_exhaustion_point() -> None:
    """'The AE rolls one dice per round against his ability score plus his skill'"""
    result = play_round(
        ComplexAction(difficulty=100), [Participant(spec=LOCKSMITH, points=5)], seeded_rng("s")
    )
    assert result.participants[0].points == 4
    roll = result.rolls[0]
    assert roll is not None
    assert result.action.rounds == 1
    assert result.action.total == (roll.success_rate if not roll.fumble else 0)


def test_assisting_characters_add_their_success_rates() -> None:
    """'many AE's may roll for the action and add all of there success rates together'"""
    warrior = ActionSpec(ability=7, skill=1)
    boulder = step(ComplexAction(difficulty=10), [resolve(LOCKSMITH, 5), resolve(warrior, 3)])
    assert (boulder.total, boulder.rounds, boulder.status) == (9, 1, "in_progress")
    result = play_round(
        ComplexAction(difficulty=100),
        [Participant(spec=LOCKSMITH, points=3), Participant(spec=warrior, points=0)],
        seeded_rng("t"),
    )
    assert result.rolls[1] is None and result.rolls[0] is not None
