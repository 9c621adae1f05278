"""Opposed rolls between two rolling sides: exact odds in closed form."""

from __future__ import annotations

from fractions import Fraction

import pytest

from services.dice import probability
from services.maze.exploding import p_difference_at_least
from services.maze.opposed import Side, opposed_odds


def test_two_d10s_with_the_same_modifier_tie_one_time_in_eleven() -> None:
    """OPPOSED ROLL: "A tied score will favor either a PC (in the case of PC vs. NPC)" —
    by hand, P(tie) = Σ P(x)² = (10 − 1)·Σ_a 10^−2(a+1) = 9/99 = 1/11, so the PC wins
    (1 − 1/11)/2 + 1/11 = 6/11."""
    odds = opposed_odds(Side(die=10, modifier=2), Side(die=10, modifier=2, is_pc=False))
    assert odds.p_tie_per_round == Fraction(1, 11)
    assert odds.p_first_wins == Fraction(6, 11)
    assert odds.p_second_wins == Fraction(5, 11)
    assert odds.p_first_wins + odds.p_second_wins == 1


def test_two_pcs_with_d4s_re_roll_ties_and_each_win_half_the_time() -> None:
    """OPPOSED ROLL: "in the case of PC vs. PC, will require a re-roll" — d4 (Fear or
    Exhaustion) against d4: symmetric, so exactly 1/2 each; a round ties 1/5."""
    odds = opposed_odds(Side(die=4, modifier=1), Side(die=4, modifier=1))
    assert odds.p_tie_per_round == Fraction(1, 5)
    assert odds.p_first_wins == odds.p_second_wins == Fraction(1, 2)


@pytest.mark.parametrize(
    ("s", "t", "c"), [(10, 6, 1), (4, 12, 0), (8, 12, -3), (6, 4, 5), (12, 10, 2), (4, 10, -7)]
)
def test_the_closed_form_agrees_with_the_dice_engine(s: int, t: int, c: int) -> None:
    """ "EXPLODING" DIE ("you may roll it again and add that to your total"): the closed
    form of P(X − Y ≥ c) matches the dice engine's enumeration within its 1e-12 tail."""
    margin = probability(f"1d{s}! >= 1d{t}!").check
    assert margin is not None
    dist = margin.margin
    enumerated = Fraction(sum(w for v, w in dist.pmf.items() if v >= c), dist.den)
    assert abs(p_difference_at_least(s, t, c) - enumerated) <= Fraction(1, 10**12)


def test_win_tie_and_loss_sum_to_exactly_one_for_mixed_dice() -> None:
    """OPPOSED ROLL: "compare the outcomes to see who rolled higher" — a d4 (Exhaustion)
    +3 against a d12 −1, NPC against PC: every outcome is counted once."""
    odds = opposed_odds(Side(die=4, modifier=3, is_pc=False), Side(die=12, modifier=-1))
    assert odds.p_first_wins + odds.p_second_wins == 1
    assert 0 < odds.p_first_wins < 1 and odds.p_tie_per_round > 0


def test_sides_with_fixed_totals_are_exact() -> None:
    """OPPOSED ROLL and TAKING HALF: a side that took half has a known total."""
    both = opposed_odds(Side(total=6), Side(total=5, is_pc=False))
    assert both.p_first_wins == 1 and both.p_second_wins == 0
    npc_first = opposed_odds(Side(total=5, is_pc=False), Side(die=10, modifier=1))
    assert npc_first.p_second_wins == Fraction(7, 10)
