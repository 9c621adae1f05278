"""Exact distributions: the texts' odds as fractions, open-ended dice with stated bounds."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from services.dice import DiceError, Limits, probability, roll, seeded_rng


@pytest.mark.parametrize(
    ("text", "p"),
    [
        ("1d6!+2 >= 10", Fraction(5, 36)),  # The Maze: exploding d6 + 2 vs DC 10
        ("1d12!+6 >= 17", Fraction(1, 6)),  # The Maze: exploding d12 + 6 vs DC 17
        ("2d6+1 >= 9", Fraction(5, 12)),  # Maze Rats save with +1
        ("1d10 <= 8", Fraction(4, 5)),  # Haze roll-under 8
        ("1d10!+2 >= 13", Fraction(1, 10)),
        ("1d20 >= 1d20", Fraction(21, 40)),
        ("2d20kh1 >= 15", Fraction(51, 100)),
        ("2d20kl1 >= 15", Fraction(9, 100)),
        ("1d6 == 1d6", Fraction(1, 6)),
        ("2d6+1 > 9", Fraction(5, 18)),
        ("1d10 < 8", Fraction(7, 10)),
    ],
)
def test_check_odds_are_exact_fractions(text: str, p: Fraction) -> None:
    report = probability(text)
    assert report.check is not None
    assert report.check.success.low == p
    assert report.check.success.exact
    assert report.check.failure.low == 1 - p


def test_an_exploding_die_never_lands_on_a_multiple_of_its_size() -> None:
    # Truncating tools lump the tail on the top face; the tail here is kept apart.
    report = probability("1d6!")
    assert all(v % 6 for v in report.dist.pmf)
    assert report.p(7) == Fraction(1, 36)
    assert report.p(13) == Fraction(1, 216)
    d = report.dist
    assert 0 < Fraction(d.tail, d.den) <= Fraction(1, 10**12)
    assert d.tlo > max(v for v in d.pmf if report.p(v) > Fraction(1, 10**11))


def test_open_ended_moments_match_their_closed_forms() -> None:
    # E[exploding dN] = (N+1)/2 · N/(N-1)
    mean, _ = probability("1d10!").moments()
    assert mean == pytest.approx(5.5 * 10 / 9, abs=1e-9)
    mean, _ = probability("3d6!p").moments()
    assert mean == pytest.approx(12.0, abs=1e-9)


def test_keep_highest_matches_a_direct_count() -> None:
    report = probability("4d6kh3")
    assert report.p(18) == Fraction(21, 1296)
    assert report.p(3) == Fraction(1, 1296)
    assert sum(Fraction(w, report.dist.den) for w in report.dist.pmf.values()) == 1


def test_keep_highest_over_a_large_pool_matches_order_statistics() -> None:
    """Issue 18, item 6: `50d6kh3` exact. The three kept dice are all sixes exactly when
    three or more of the fifty show a six (a binomial count)."""
    report = probability("50d6kh3")
    at_most_two = sum(Fraction(math.comb(50, j) * 5 ** (50 - j), 6**50) for j in range(3))
    assert report.p(18) == 1 - at_most_two
    assert report.p(3) == Fraction(1, 6**50)
    assert sum(report.dist.pmf.values()) == report.dist.den


def test_rerolls_reshape_the_die() -> None:
    assert probability("1d6r<=2").p(3) == Fraction(1, 4)
    assert probability("1d6ro<=2").p(1) == Fraction(2, 36)
    assert probability("1d6ro<=2").p(6) == Fraction(8, 36)


def test_success_pools_count_every_throw_of_an_exploding_die() -> None:
    report = probability("1d10>=8!")
    # P(0 successes) = P(first throw < 8) = 7/10
    assert report.p(0) == Fraction(7, 10)
    # P(exactly 1) = P(8 or 9) + P(10 then < 8) = 2/10 + 1/10 · 7/10
    assert report.p(1) == Fraction(2, 10) + Fraction(7, 100)


def test_a_threshold_the_tail_can_reach_reports_its_error_bound() -> None:
    report = probability("1d6! >= 200")
    assert report.check is not None
    assert not report.check.success.exact
    assert 0 < report.check.success.error <= Fraction(1, 10**12)


def test_the_margin_distribution_sums_to_one() -> None:
    report = probability("2d6+1 >= 9")
    assert report.check is not None
    m = report.check.margin
    assert sum(m.pmf.values()) == m.den
    assert m.pmf[4] * 36 == m.den  # margin +4 ⇔ total 13 ⇔ double six


def test_large_but_allowed_distributions_are_exact() -> None:
    report = probability("100d100")
    assert report.dist.tail == 0
    assert report.p(100) == Fraction(1, 100**100)
    assert len(report.dist.pmf) == 9901


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("1000d10000", "distribution_too_large"),
        ("20d1000 * 20d1000", "distribution_too_large"),
        ("1d6 / (1d2 - 1)", "division_by_zero"),
        ("4d6!dl1", "distribution_unsupported"),
    ],
)
def test_expressions_past_the_limits_are_refused_before_work(text: str, code: str) -> None:
    with pytest.raises(DiceError) as info:
        probability(text)
    assert info.value.code == code


def test_limits_are_configurable() -> None:
    with pytest.raises(DiceError) as info:
        probability("10d10", Limits(max_support=50))
    assert info.value.code == "distribution_too_large"


def test_the_report_serialises_fractions_and_floats() -> None:
    d = probability("1d10!+2 >= 13").to_dict()
    assert d["check"]["success"] == {
        "fraction": "1/10",
        "float": 0.1,
        "exact": True,
        "error_bound": "0/1",
    }
    assert d["exact"] is False and d["max"] is None and d["min"] == 3
    assert d["percentiles"]["50"] == 7


@pytest.mark.parametrize(
    ("text", "p"),
    [
        ("3d6=6! >= 1", 1 - Fraction(5, 6) ** 3),  # a six anywhere, explosions included
        ("1d10>=10! >= 1", Fraction(1, 10)),
        ("1d6<=5!p >= 1", Fraction(1)),
    ],
)
def test_success_pools_on_dice_exploding_on_one_face_are_exact(text: str, p: Fraction) -> None:
    report = probability(text)
    assert report.success == p
    d = report.dist
    assert sum(d.pmf.values()) + d.tail == d.den


def test_one_argument_min_and_max_are_the_argument() -> None:
    assert probability("min(1d6)").p(6) == Fraction(1, 6)
    assert probability("max(3)").p(3) == 1


@pytest.mark.parametrize(
    "text", ["*".join(["1000000000000"] * 30), "1000000000000 * 1000000000000 * 1d6"]
)
def test_values_beyond_2_62_are_refused_everywhere(text: str) -> None:
    for run in (lambda: probability(text), lambda: roll(text, seeded_rng("x"))):
        with pytest.raises(DiceError) as info:
            run()
        assert info.value.code == "value_too_large"


@pytest.mark.parametrize("text", ["1000d6!", "500d100 - 500d100", "100d10kh28"])
def test_work_is_priced_by_the_size_of_its_weights_before_it_starts(text: str) -> None:
    with pytest.raises(DiceError) as info:
        probability(text)
    assert info.value.code == "distribution_too_large"


def test_probability_keeps_the_dice_per_roll_limit() -> None:
    with pytest.raises(DiceError) as info:
        probability("1000d2 + 1000d2")
    assert info.value.code == "too_many_dice"
