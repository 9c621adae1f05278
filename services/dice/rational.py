"""Distributions whose values may be fractions: the argument of floor/ceil/round, where
division is exact, and the pairwise pieces shared with dice groups.

Values are ints or Fractions; weights stay integers over a common denominator, with the
same stated tail as `exact.Dist`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from services.dice.arith import ROUNDERS, Rational
from services.dice.ast import Keep
from services.dice.exact import INF, Budget, Dist, outer_bounds

QBound = int | float | Fraction
Interval = Callable[[QBound, QBound, QBound, QBound], tuple[QBound, QBound]]


@dataclass(frozen=True, slots=True)
class QDist:
    """pmf: value → weight over den; `tail` weight lies in [tlo, thi]."""

    pmf: dict[Rational, int]
    den: int
    tail: int = 0
    tlo: QBound = INF
    thi: QBound = -INF

    @property
    def lo(self) -> QBound:
        """Smallest possible outcome, tail included."""
        lo: QBound = outer_bounds(self.pmf, self.tail, self.tlo, self.thi)[0]
        return lo

    @property
    def hi(self) -> QBound:
        """Largest possible outcome, tail included."""
        hi: QBound = outer_bounds(self.pmf, self.tail, self.tlo, self.thi)[1]
        return hi


def lift(d: Dist) -> QDist:
    """An integer distribution as a rational one."""
    pmf: dict[Rational, int] = {v: w for v, w in d.pmf.items()}
    return QDist(pmf, d.den, d.tail, d.tlo, d.thi)


def lower(q: QDist, fn: str | None = None) -> Dist:
    """Back to integers, through floor/ceil/round (`fn`), or as is when every value is one."""
    rnd = ROUNDERS[fn] if fn is not None else _as_int
    pmf: dict[int, int] = {}
    for v, w in q.pmf.items():
        r = rnd(v)
        pmf[r] = pmf.get(r, 0) + w
    return Dist(pmf, q.den, q.tail, _bound(q.tlo, rnd), _bound(q.thi, rnd))


def _as_int(v: Rational) -> int:
    assert isinstance(v, int) or v.denominator == 1
    return int(v)


def _bound(b: QBound, rnd: Callable[[Rational], int]) -> int | float:
    if isinstance(b, float) and math.isinf(b):
        return b
    return rnd(Fraction(b))


def _add_b(x: QBound, y: QBound) -> QBound:
    if _inf(x) and _inf(y) and x != y:
        return -INF if x < 0 else INF
    return x + y


def _inf(x: QBound) -> bool:
    return isinstance(x, float) and math.isinf(x)


def add_interval(a0: QBound, a1: QBound, b0: QBound, b1: QBound) -> tuple[QBound, QBound]:
    """Bounds of x + y."""
    return _add_b(a0, b0), _add_b(a1, b1)


def mul_interval(a0: QBound, a1: QBound, b0: QBound, b1: QBound) -> tuple[QBound, QBound]:
    """Bounds of x * y."""
    corners = [0 if x == 0 or y == 0 else x * y for x in (a0, a1) for y in (b0, b1)]
    return min(corners), max(corners)


def div_interval(a0: QBound, a1: QBound, b0: QBound, b1: QBound) -> tuple[QBound, QBound]:
    """Bounds of exact x / y over a box whose y-range excludes 0 (else unbounded)."""
    if b0 <= 0 <= b1 or any(_inf(v) for v in (a0, a1)):
        return -INF, INF
    corners = [Fraction(x) / Fraction(y) if not _inf(y) else 0 for x in (a0, a1) for y in (b0, b1)]
    return min(corners), max(corners)


def pairwise(
    a: QDist,
    b: QDist,
    fn: Callable[[Rational, Rational], Rational],
    interval: Interval,
    budget: Budget,
) -> QDist:
    """f(X, Y) by enumerating pairs."""
    budget.charge(len(a.pmf) * len(b.pmf), len(a.pmf) * len(b.pmf))
    out: dict[Rational, int] = {}
    for x, wx in a.pmf.items():
        for y, wy in b.pmf.items():
            v = fn(x, y)
            out[v] = out.get(v, 0) + wx * wy
    lo: QBound = INF
    hi: QBound = -INF
    if a.tail:
        r = interval(a.tlo, a.thi, b.lo, b.hi)
        lo, hi = min(lo, r[0]), max(hi, r[1])
    if b.tail:
        r = interval(a.lo, a.hi, b.tlo, b.thi)
        lo, hi = min(lo, r[0]), max(hi, r[1])
    tail = a.den * b.den - (a.den - a.tail) * (b.den - b.tail)
    return QDist(out, a.den * b.den, tail, lo, hi)


def mapped(a: QDist, fn: Callable[[Rational], Rational], lo: QBound, hi: QBound) -> QDist:
    """f(X) for a one-argument f; (lo, hi) bound f over the tail."""
    out: dict[Rational, int] = {}
    for v, w in a.pmf.items():
        r = fn(v)
        out[r] = out.get(r, 0) + w
    return QDist(out, a.den, a.tail, lo if a.tail else INF, hi if a.tail else -INF)


def abs_dist(a: QDist) -> QDist:
    """|X|."""
    lo, hi = _abs(a.tlo), _abs(a.thi)
    tlo: QBound = 0 if a.tlo <= 0 <= a.thi else min(lo, hi)
    return mapped(a, lambda v: -v if v < 0 else v, tlo, max(lo, hi))


def _abs(x: QBound) -> QBound:
    return -x if x < 0 else x


def group_keep(dists: list[QDist], keep: Keep, budget: Budget) -> QDist:
    """Σ of the k highest (lowest) of independent, differently distributed items.

    A state is the sorted best k values so far; the items' order does not matter.
    """
    k, high = keep.kept(len(dists))
    states: dict[tuple[Rational, ...], int] = {(): 1}
    for d in dists:
        budget.charge(len(states) * len(d.pmf), len(states) * len(d.pmf))
        grown: dict[tuple[Rational, ...], int] = {}
        for best, w in states.items():
            for v, wv in d.pmf.items():
                key = tuple(sorted((*best, v), reverse=high)[:k])
                grown[key] = grown.get(key, 0) + w * wv
        states = grown
    pmf: dict[Rational, int] = {}
    for best, w in states.items():
        s = sum(best, start=0)
        pmf[s] = pmf.get(s, 0) + w
    den = math.prod(d.den for d in dists)
    tail = den - math.prod(d.den - d.tail for d in dists)
    # The sum of the best k is monotone in every item, so the items' bounds bound it.
    los = sorted((d.lo for d in dists), reverse=high)[:k]
    his = sorted((d.hi for d in dists), reverse=high)[:k]
    lo: QBound = 0
    hi: QBound = 0
    for x in los:
        lo = _add_b(lo, x)
    for x in his:
        hi = _add_b(hi, x)
    return QDist(pmf, den, tail, lo if tail else INF, hi if tail else -INF)
