"""Exact odds of an action roll."""

from __future__ import annotations

from fractions import Fraction

from services.haze import ActionSpec, HazeRules, action_odds


def test_the_warrior_hits_four_times_in_five() -> None:
    """'he would need to roll an eight or less to successfully hit.'"""
    odds = action_odds(ActionSpec(ability=6, skill=2))
    assert odds.success == Fraction(4, 5)
    assert odds.failure == Fraction(1, 5)
    assert odds.fumble == Fraction(1, 10)


def test_the_success_rate_distribution_is_uniform_over_the_nine_faces_that_do_not_fumble() -> None:
    """'Ability + Skill - Dice roll = Success rate'; 'If a player rolls a 10 ... that roll is
    called a fumble' — the 10 is its own bucket."""
    odds = action_odds(ActionSpec(ability=6, skill=2))
    assert odds.success_rate == {8 - face: Fraction(1, 10) for face in range(1, 10)}
    assert (odds.fumble, odds.fumble_success_rate, odds.fumble_succeeds) == (
        Fraction(1, 10),
        -2,
        False,
    )


def test_at_a_target_of_twelve_the_distribution_agrees_with_the_chance_of_success() -> None:
    """'a 10 ... is called a fumble': the face 10 (rate +2) is not counted as a success rate."""
    odds = action_odds(ActionSpec(ability=8, skill=4))
    assert sum(odds.success_rate.values()) + odds.fumble == 1
    assert sum(p for v, p in odds.success_rate.items() if v >= 0) == odds.success == Fraction(9, 10)
    lenient = action_odds(ActionSpec(ability=8, skill=4), HazeRules(fumble_always_fails=False))
    assert lenient.fumble_succeeds and lenient.fumble_success_rate == 2
    rates = sum(p for v, p in lenient.success_rate.items() if v >= 0)
    assert rates + lenient.fumble == lenient.success == 1


def test_difficulty_lowers_the_chance() -> None:
    """'Difficulty is a success rate modifier, it increases the success rate requirement'"""
    odds = action_odds(ActionSpec(ability=6, skill=2, difficulty=3))
    assert odds.success == Fraction(1, 2)
    assert odds.success_rate[0] == Fraction(1, 10)


def test_a_ten_fails_even_at_a_target_of_twelve() -> None:
    """'If a player rolls a 10 when attempting an action roll that roll is called a fumble.'"""
    spec = ActionSpec(ability=8, skill=4)
    assert action_odds(spec).success == Fraction(9, 10)
    assert action_odds(spec, HazeRules(fumble_always_fails=False)).success == 1


def test_an_unskilled_low_ability_can_never_succeed() -> None:
    """'This action roll is made versus the relevant ability score at a minus three
    penalty.'"""
    odds = action_odds(ActionSpec(ability=3, unskilled=True, related_skill=True))
    assert odds.success == 0
    assert odds.fumble == Fraction(1, 10)


def test_an_arbitrary_success_is_certain() -> None:
    """'it is possible for your AE to succeed without the need for you to roll dice'"""
    odds = action_odds(ActionSpec(ability=5, skill=4, difficulty=1), take_arbitrary=True)
    assert (odds.success, odds.fumble) == (Fraction(1), Fraction(0))
    assert odds.success_rate == {3: Fraction(1)}
