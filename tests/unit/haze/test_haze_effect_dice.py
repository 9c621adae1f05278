"""Effect dice: ⌊(ability + skill)/2⌋ + modifiers d10, tens re-rolled and added."""

from __future__ import annotations

from fractions import Fraction

import pytest

from services.dice import seeded_rng
from services.haze import (
    ActionSpec,
    HazeRules,
    effect_dice,
    effect_dice_for,
    effect_distribution,
    roll_effect,
)
from services.haze.errors import TooManyEffectDice


def test_the_number_of_effect_dice_is_ability_plus_skill_halved_plus_modifiers() -> None:
    """'((Ability + skill)/2) + modifiers = Number of dice'"""
    assert effect_dice(6, 2) == 4
    assert effect_dice(6, 3) == 4  # halved, rounded down
    assert effect_dice(6, 3, 2) == 6
    assert effect_dice(1, 0, -3) == 0  # never fewer than no dice


def test_an_unskilled_action_rolls_the_ability_halved() -> None:
    """'This action roll is made versus the relevant ability score at a minus three
    penalty.' — the penalty is on the roll; setting unskilled_penalty_on_effect."""
    spec = ActionSpec(ability=7, unskilled=True, related_skill=True)
    assert effect_dice_for(spec) == 3
    assert effect_dice_for(spec, HazeRules(unskilled_penalty_on_effect=True)) == 2


def test_tens_are_rerolled_and_totalled() -> None:
    """'if tens are rolled, then they are re-rolled and totalled, thus creating open ended
    effect.'"""
    seen_ten = False
    for seed in range(300):
        effect = roll_effect(2, seeded_rng(str(seed)))
        assert effect.total == sum(effect.faces)
        tens = effect.faces.count(10)
        assert len(effect.faces) == 2 + tens
        seen_ten = seen_ten or tens > 0
    assert seen_ten


def test_one_effect_die_is_open_ended_with_exact_odds() -> None:
    """'if tens are rolled, then they are re-rolled and totalled'"""
    report = effect_distribution(1)
    assert report.p(7) == Fraction(1, 10)
    assert report.p(10) == 0  # a ten always rolls on
    assert report.p(13) == Fraction(1, 100)
    assert report.p(25) == Fraction(1, 1000)


def test_two_effect_dice_have_the_hand_calculated_distribution() -> None:
    """'a number of effect dice equal to the AE ability added to his skill then halved plus
    any modifiers are rolled'"""
    report = effect_distribution(2)
    assert report.p(2) == Fraction(1, 100)
    assert report.p(11) == Fraction(8, 100)  # 2+9 … 9+2, and no 10
    # 12: 3+9 … 9+3 (7 ways) + a ten re-rolled 1 beside a 1 (2 orders × 1/1000)
    assert report.p(12) == Fraction(7, 100) + Fraction(2, 1000)


def test_the_open_ended_tail_is_reported_like_the_dice_engine() -> None:
    """'thus creating open ended effect.'"""
    data = effect_distribution(4).to_dict()
    assert data["exact"] is False
    assert data["max"] is None
    assert 0 < data["tail"]["float"] <= 1e-12


def test_too_many_effect_dice_are_refused() -> None:
    """'plus any modifiers' — modifiers are bounded by the service's limit."""
    with pytest.raises(TooManyEffectDice) as refused:
        effect_distribution(1000)
    assert refused.value.code == "too_many_effect_dice"
