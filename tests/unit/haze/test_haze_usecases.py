"""The Haze use cases the API serves (services/haze/usecases.py): one request in, one
result out, the same for REST and GraphQL."""

from __future__ import annotations

import pytest

from services.haze.errors import Exhausted, NoParticipants
from services.haze.requests import (
    HazeActionRequest,
    HazeComplexRoundRequest,
    HazeExhaustionRequest,
    ReactionRequest,
)
from services.haze.usecases import (
    HazeActionOdds,
    ability_checks,
    action,
    action_odds_of,
    complex_round,
    exhaustion,
    reaction_odds,
)


def test_an_action_replays_from_its_seed_and_answers_its_effect_dice() -> None:
    request = HazeActionRequest.model_validate({"action": {"ability": 6, "skill": 2}})
    first = action(request, "haze")
    assert first == action(request, "haze")
    assert (first.seed, first.effect_dice, first.target) == ("haze", 4, 8)
    assert first.success_rate == 8 - (first.roll or 0)


def test_action_odds_are_a_list_of_rates_beside_the_fumble() -> None:
    odds = action_odds_of(HazeActionRequest.model_validate({"action": {"ability": 6}}))
    assert isinstance(odds, HazeActionOdds)
    assert [p.value for p in odds.success_rate] == list(range(-3, 6))
    assert odds.fumble.fraction == "1/10" and odds.success.fraction == "3/5"


def test_without_a_re_action_the_hit_chance_is_the_attack_s_own() -> None:
    alone = reaction_odds(ReactionRequest.model_validate({"attack": {"ability": 4}}))
    assert (alone.penalty, alone.hit.fraction) == (0, "2/5")
    met = {"attack": {"ability": 1}, "defence": {"ability": 1}}
    assert reaction_odds(ReactionRequest.model_validate(met)).hit.fraction == "1/10"


def test_giving_up_a_complex_action_rolls_nothing() -> None:
    body = {"action": {"difficulty": 12}, "participants": [{"spec": {"ability": 5}, "points": 3}]}
    stopped = complex_round(HazeComplexRoundRequest.model_validate({**body, "give_up": True}), "s")
    assert (stopped.status, stopped.rolls, stopped.points, stopped.rounds) == (
        "given_up",
        [None],
        [3],
        0,
    )
    played = complex_round(HazeComplexRoundRequest.model_validate(body), "s")
    assert played.rounds == 1 and played.points == [2] and played.rolls[0] is not None
    with pytest.raises(NoParticipants):
        complex_round(HazeComplexRoundRequest.model_validate({**body, "participants": []}), "s")


def test_exhaustion_pays_each_action_in_order_then_rests() -> None:
    pool = {"health": 5, "points": 5}
    state = {"body": pool, "mind": pool, "soul": pool}
    two = exhaustion(
        HazeExhaustionRequest.model_validate({"state": state, "actions": ["body"] * 2})
    )
    assert (two.body.points, two.body.next_cost, two.body.can_act) == (2, 3, False)
    assert two.mind.points == 5
    with pytest.raises(Exhausted):
        exhaustion(HazeExhaustionRequest.model_validate({"state": state, "actions": ["body"] * 3}))
    rested = {"state": state, "actions": ["mind"], "end_round": True}
    after = exhaustion(HazeExhaustionRequest.model_validate(rested))
    assert (after.mind.points, after.mind.actions) == (4, 0)


def test_the_catalogue_lists_examples_as_a_list() -> None:
    checks = {c.name: c for c in ability_checks(None).checks}
    assert len(checks) == 18
    assert {e.name: e.difficulty for e in checks["smash"].examples}["exterior_door"] == 7
