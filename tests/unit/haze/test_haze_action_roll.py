"""The action roll: d10 ≤ ability + skill; success rate; fumbles; difficulty; unskilled."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from services.dice import seeded_rng
from services.haze import (
    ActionSpec,
    HazeError,
    HazeRules,
    arbitrary_success_rate,
    resolve,
    roll_action,
    target,
)
from services.haze.errors import NoArbitrarySuccess, NoRelatedSkill


def test_the_target_is_ability_plus_skill() -> None:
    """'let's assume the warrior has a strength of six and a swordplay score of two; he
    would need to roll an eight or less to successfully hit.'"""
    spec = ActionSpec(ability=6, skill=2)
    assert target(spec) == 8
    assert resolve(spec, 8).success
    assert not resolve(spec, 9).success


def test_the_success_rate_is_the_target_less_the_roll() -> None:
    """'Ability + Skill - Dice roll = Success rate'"""
    outcome = resolve(ActionSpec(ability=5, skill=3), 3)
    assert (outcome.margin, outcome.success_rate) == (5, 5)


def test_a_failure_has_a_negative_success_rate() -> None:
    """'(Failure is negative success rate)'"""
    outcome = resolve(ActionSpec(ability=4, skill=1), 8)
    assert not outcome.success and outcome.success_rate == -3


def test_an_instinctive_skill_at_level_zero_uses_the_ability_alone() -> None:
    """'These skills are level zero to start but they still allow the AE to make action
    rolls with them, effectively using only the relevant ability score.'"""
    assert target(ActionSpec(ability=5)) == 5


def test_a_ten_is_a_fumble_even_when_the_target_is_higher() -> None:
    """'If a player rolls a 10 when attempting an action roll that roll is called a fumble.'"""
    outcome = resolve(ActionSpec(ability=8, skill=4), 10)
    assert outcome.fumble and not outcome.success


def test_a_ten_may_succeed_at_a_table_where_fumbles_only_hurt() -> None:
    """'A fumble is when lady luck has dealt you a bad hand' — setting fumble_always_fails."""
    rules = HazeRules(fumble_always_fails=False)
    outcome = resolve(ActionSpec(ability=8, skill=4), 10, rules)
    assert outcome.fumble and outcome.success and outcome.success_rate == 2


def test_a_fumble_rolls_a_single_effect_die() -> None:
    """'A single effect roll (one dice) should be made to see how badly wrong it's all gone.'"""
    spec = ActionSpec(ability=5)
    fumbles = []
    for seed in range(200):
        outcome = roll_action(spec, seeded_rng(str(seed)))
        if outcome.fumble:
            fumbles.append(outcome)
        else:
            assert outcome.fumble_effect is None
    assert fumbles
    for outcome in fumbles:
        effect = outcome.fumble_effect
        assert effect is not None and effect.dice == 1
        assert effect.total == sum(effect.faces)


def test_a_seeded_roll_is_reproducible() -> None:
    """'Players roll dice to find out if AE attempts to do things are successful'"""
    spec = ActionSpec(ability=5, skill=2)
    assert roll_action(spec, seeded_rng("abc")) == roll_action(spec, seeded_rng("abc"))


def test_difficulty_raises_the_success_rate_needed() -> None:
    """'Difficulty is a success rate modifier, it increases the success rate requirement for
    a particular task.'"""
    spec = ActionSpec(ability=6, skill=2, difficulty=2)
    assert resolve(spec, 6).success and resolve(spec, 6).success_rate == 0
    assert not resolve(spec, 7).success


def test_at_difficulty_zero_rolling_the_target_succeeds() -> None:
    """'when making an action roll, a player need only roll equal to their target to
    succeed.'"""
    assert resolve(ActionSpec(ability=4, skill=2), 6).success


def test_arbitrary_success_rate_is_skill_less_difficulty() -> None:
    """'skill - difficulty = Success rate'"""
    assert arbitrary_success_rate(5, 2) == 3


def test_arbitrary_success_needs_a_skill_above_the_difficulty() -> None:
    """'If your skill level alone is greater than the difficulty of an action it is possible
    for your AE to succeed without the need for you to roll dice'"""
    assert arbitrary_success_rate(2, 2) is None
    outcome = roll_action(
        ActionSpec(ability=5, skill=4, difficulty=1), seeded_rng("s"), take_arbitrary=True
    )
    assert outcome.arbitrary and outcome.roll is None
    assert (outcome.success, outcome.success_rate) == (True, 3)
    with pytest.raises(NoArbitrarySuccess) as refused:
        roll_action(
            ActionSpec(ability=9, skill=2, difficulty=2), seeded_rng("s"), take_arbitrary=True
        )
    assert refused.value.code == "no_arbitrary_success"


def test_an_unskilled_action_is_the_ability_at_minus_three() -> None:
    """'This action roll is made versus the relevant ability score at a minus three
    penalty.'"""
    assert target(ActionSpec(ability=6, unskilled=True, related_skill=True)) == 3


def test_an_unskilled_action_needs_a_related_skill() -> None:
    """'Note that you must have some related skill in a closely matched field in order to
    attempt this.'"""
    with pytest.raises(NoRelatedSkill) as refused:
        roll_action(ActionSpec(ability=6, unskilled=True), seeded_rng("s"))
    assert isinstance(refused.value, HazeError)
    assert refused.value.code == "no_related_skill"
    assert refused.value.http_status == 422


def test_an_unskilled_action_cannot_carry_a_skill_level() -> None:
    """'It is of course possible to try absolutely anything even if you do not have the
    skill that the action requires.'"""
    with pytest.raises(ValidationError):
        ActionSpec(ability=6, skill=2, unskilled=True, related_skill=True)


def test_the_unskilled_penalty_is_a_table_setting() -> None:
    """'at a minus three penalty' — setting unskilled_penalty."""
    spec = ActionSpec(ability=6, unskilled=True, related_skill=True)
    assert target(spec, HazeRules(unskilled_penalty=2)) == 4
