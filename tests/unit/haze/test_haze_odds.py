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


def test_the_success_rate_distribution_is_uniform_over_the_faces() -> None:
    """'Ability + Skill - Dice roll = Success rate'"""
    odds = action_odds(ActionSpec(ability=6, skill=2))
    assert odds.success_rate == {8 - face: Fraction(1, 10) for face in range(1, 11)}


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


def test_odds_serialise_as_fraction_strings_and_floats() -> None:
    """'The better the success rate is the more effective the AE has been'"""
    data = action_odds(ActionSpec(ability=6, skill=2)).to_dict()
    assert data["success"] == {"fraction": "4/5", "float": 0.8}
    assert data["success_rate"][0] == {"value": -2, "fraction": "1/10", "float": 0.1}
