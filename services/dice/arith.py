"""Arithmetic shared by the roller, the fast path and the distributions.

Inside `floor`, `ceil` and `round` division is exact (a Fraction), so `ceil(1d6/2)`
rounds 3.5 up; everywhere else `/` stays floor division on integers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

from services.dice.ast import Keep
from services.dice.errors import DiceEvaluationError

Rational = int | Fraction


def round_half_up(x: Rational) -> int:
    """Round to the nearest integer, halves towards +inf (JavaScript's Math.round)."""
    return math.floor(x + Fraction(1, 2))


ROUNDERS: dict[str, Callable[[Rational], int]] = {
    "floor": math.floor,
    "ceil": math.ceil,
    "round": round_half_up,
}


def divide(a: Rational, b: Rational, pos: int, exact: bool) -> Rational:
    """a / b: exact inside a rounding function, floor division elsewhere."""
    if b == 0:
        raise DiceEvaluationError(
            f"division by zero: the divisor at position {pos} rolled 0",
            code="division_by_zero",
            position=pos,
        )
    if exact:
        q = Fraction(a) / b
        return q.numerator if q.denominator == 1 else q
    return a // b


def kept_mask(values: Sequence[Rational], keep: Keep | None) -> list[bool]:
    """Which of `values` a keep/drop retains; ties go to the earlier item."""
    if keep is None:
        return [True] * len(values)
    k, high = keep.kept(len(values))
    order = sorted(range(len(values)), key=lambda i: values[i], reverse=high)
    chosen = set(order[:k])
    return [i in chosen for i in range(len(values))]


def keep_sum(values: Sequence[Rational], keep: Keep | None) -> Rational:
    """The sum of the values a keep/drop retains."""
    mask = kept_mask(values, keep)
    return sum((v for v, m in zip(values, mask, strict=True) if m), start=0)
