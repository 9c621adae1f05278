"""Properties over generated expressions: rolls lie in the exact support, seeds replay."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.dice import DiceError, Limits, SimRng, parse, probability, roll, seeded_rng
from services.dice.ast import formula
from services.dice.batch import roll_batch
from services.dice.exact import Dist
from tests.unit.dice.strategies import checks, expressions

LIMITS = Limits(max_support=20_000, max_cost=400_000)
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def in_support(d: Dist, value: int) -> bool:
    return value in d.pmf or (d.tail > 0 and d.tlo <= value <= d.thi)


@SETTINGS
@given(expressions, st.text(min_size=1, max_size=12))
def test_a_rolled_total_always_lies_in_the_exact_distribution(text: str, seed: str) -> None:
    try:
        report = probability(text, LIMITS)
    except DiceError as e:
        assert e.code in {"distribution_too_large", "division_by_zero"}
        return
    d = report.dist
    assert sum(d.pmf.values()) + d.tail == d.den  # probabilities and the tail make 1
    assert all(w > 0 for w in d.pmf.values())
    for i in range(5):
        try:
            r = roll(text, seeded_rng(f"{seed}/{i}"), LIMITS)
        except DiceError as e:
            assert e.code == "division_by_zero"
            continue
        assert in_support(report.dist, r.total), (text, r.total)
        assert r.tree.value == r.total


@SETTINGS
@given(checks, st.text(max_size=12))
def test_seeded_rolls_reproduce_exactly(text: str, seed: str) -> None:
    try:
        a = roll(text, seeded_rng(seed), LIMITS)
    except DiceError as e:
        assert e.code == "division_by_zero"
        return
    b = roll(text, seeded_rng(seed), LIMITS)
    assert a.to_dict() == b.to_dict()
    assert a.check is not None and b.check is not None
    assert a.check.success == (
        a.check.margin > 0
        if a.check.op in (">", "<")
        else a.check.margin >= 0
        if a.check.op != "=="
        else a.check.margin == 0
    )


@SETTINGS
@given(expressions, st.integers(0, 2**32))
def test_batch_totals_lie_in_the_exact_distribution(text: str, seed: int) -> None:
    try:
        report = probability(text, LIMITS)
        batch = roll_batch(text, 50, SimRng(seed), LIMITS)
    except DiceError as e:
        assert e.code in {"distribution_too_large", "division_by_zero"}
        return
    assert all(in_support(report.dist, int(t)) for t in batch.totals)


@SETTINGS
@given(checks, st.text(max_size=8))
def test_the_canonical_formula_parses_back_to_the_same_roll(text: str, seed: str) -> None:
    canonical = formula(parse(text, LIMITS).root)
    assert formula(parse(canonical, LIMITS).root) == canonical
    try:
        a, b = roll(text, seeded_rng(seed), LIMITS), roll(canonical, seeded_rng(seed), LIMITS)
    except DiceError as e:
        assert e.code == "division_by_zero"
        return
    assert (a.total, a.check) == (b.total, b.check)
    assert [x.face for x in a.dice] == [x.face for x in b.dice]
