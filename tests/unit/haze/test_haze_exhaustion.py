"""Exhaustion points: the nth action in a round costs n; rest restores the health score."""

from __future__ import annotations

import pytest

from services.haze import (
    Abilities,
    AspectPool,
    HazeRules,
    action_cost,
    end_round,
    max_actions_per_round,
    spend,
    start,
)
from services.haze.errors import Exhausted
from services.haze.exhaustion import Exhaustion

SHEET = Abilities(
    strength=5,
    agility=5,
    constitution=5,
    willpower=5,
    wits=5,
    intelligence=4,
    wisdom=5,
    charisma=5,
    empathy=6,
)


def test_the_nth_action_in_a_round_costs_n() -> None:
    """'The first action in a round costs one exhaustion point taken from body, mind or
    soul. The second action costs two exhaustion points, the third three and so on.'"""
    assert [action_cost(n) for n in (1, 2, 3)] == [1, 2, 3]
    state = spend(spend(start(SHEET), "body"), "body")
    assert state.body.points == 5 - 3
    assert state.mind.points == 4


def test_constitution_five_allows_two_physical_actions() -> None:
    """'if an AE has a constitution of five he may do two physical actions per round
    (1 + 2 = 3 Body points) the third action would cost three body points and thus be too
    much for the AE to accomplish as he would need a constitution of six'"""
    state = spend(spend(start(SHEET), "body"), "body")
    with pytest.raises(Exhausted) as refused:
        spend(state, "body")
    assert refused.value.code == "exhausted"
    assert max_actions_per_round(5) == 2
    assert max_actions_per_round(6) == 3
    six = Exhaustion(body=AspectPool.fresh(6), mind=AspectPool.fresh(4), soul=AspectPool.fresh(6))
    assert spend(spend(spend(six, "body"), "body"), "body").body.points == 0


def test_the_round_total_may_not_exceed_the_health_score() -> None:
    """'The total expenditure of exhaustion points in a given round may not exceed the AE's
    health score.'"""
    pool = AspectPool(health=5, points=5, actions=2, spent=3)
    assert pool.next_cost() == 3 and not pool.can_act()


def test_resting_a_round_regains_the_health_score() -> None:
    """'if an AE has a constitution of four and he rests for an entire round he regains four
    body points.'"""
    state = Exhaustion(
        body=AspectPool(health=4, points=0), mind=AspectPool.fresh(4), soul=AspectPool.fresh(6)
    )
    assert end_round(state).body.points == 4


def test_points_are_not_regained_without_rest() -> None:
    """'rest is needed to regain some body, mind or soul.'"""
    state = end_round(spend(start(SHEET), "body"))
    assert state.body.points == 4
    assert state.body.actions == 0  # the next round starts at a cost of one again
    assert end_round(state).body.points == 5


def test_a_round_with_any_action_is_not_a_rest() -> None:
    """'If an AE rests for an entire round, doing nothing, he regains a number of exhaustion
    points equal to his relevant health score.'"""
    tired = end_round(spend(start(SHEET), "body"))
    state = end_round(spend(tired, "mind"))
    assert state.body.points == 4
    rules = HazeRules(rest_scope="aspect")
    assert end_round(spend(tired, "mind"), rules).body.points == 5


def test_a_table_may_refill_points_every_round() -> None:
    """'The total expenditure of exhaustion points in a given round may not exceed the AE's
    health score.' — setting recovery = each_round."""
    state = spend(spend(start(SHEET), "body"), "body")
    assert end_round(state, HazeRules(recovery="each_round")).body.points == 5
