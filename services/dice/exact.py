"""Exact discrete distributions with integer weights and a bounded, stated tail.

A `Dist` enumerates outcomes as integer weights over a common denominator. Open-ended
dice cannot be enumerated completely, so a Dist may also hold a `tail`: the exact
weight of outcomes it did not enumerate, all of which lie in [tlo, thi]. Probabilities
of events that the tail cannot touch are therefore exact; the others come with the tail
as a stated error bound. Nothing is ever lumped onto a value it does not have.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import gmpy2

from services.dice.errors import DiceLimitError

INF = math.inf
Bound = int | float  # an int, or ±inf


@dataclass(frozen=True, slots=True)
class Dist:
    """pmf: value → weight; probability = weight / den; tail weight lies in [tlo, thi]."""

    pmf: dict[int, int]
    den: int
    tail: int = 0
    tlo: Bound = INF
    thi: Bound = -INF

    @property
    def lo(self) -> Bound:
        """Smallest possible outcome, tail included."""
        lo: Bound = outer_bounds(self.pmf, self.tail, self.tlo, self.thi)[0]
        return lo

    @property
    def hi(self) -> Bound:
        """Largest possible outcome, tail included."""
        hi: Bound = outer_bounds(self.pmf, self.tail, self.tlo, self.thi)[1]
        return hi

    @property
    def enumerated(self) -> int:
        """Weight of the enumerated outcomes."""
        return self.den - self.tail


def outer_bounds(values: Any, tail: int, tlo: Any, thi: Any) -> tuple[Any, Any]:
    """(smallest, largest) outcome of enumerated values and a tail in [tlo, thi].

    Shared with the fraction-valued distributions of `rational`, hence untyped values.
    """
    lo = min(values) if values else INF
    hi = max(values) if values else -INF
    return (min(lo, tlo), max(hi, thi)) if tail else (lo, hi)


class Budget:
    """Counts elementary steps and refuses work past the limits before doing it."""

    def __init__(self, max_cost: int, max_support: int) -> None:
        self.max_cost = max_cost
        self.max_support = max_support
        self.spent = 0

    def charge(self, steps: int, support: int = 0) -> None:
        """Account for `steps` more steps producing up to `support` values; refuse if too many."""
        self.spent += steps
        if self.spent > self.max_cost or support > self.max_support:
            raise DiceLimitError(
                "the exact distribution of this expression is too large to compute "
                f"(limits: {self.max_support} values, {self.max_cost} steps)",
                code="distribution_too_large",
            )


def const(value: int) -> Dist:
    """A certain outcome."""
    return Dist({value: 1}, 1)


def _addb(x: Bound, y: Bound) -> Bound:
    if math.isinf(x) and math.isinf(y) and x != y:
        return -INF if x < 0 else INF  # only reached for lo+lo or hi+hi pairs
    return x + y


def _mulb(x: Bound, y: Bound) -> Bound:
    if x == 0 or y == 0:
        return 0
    return x * y


def _tail_union(
    a: Dist, b: Dist, f: Callable[[Bound, Bound, Bound, Bound], tuple[Bound, Bound]]
) -> tuple[Bound, Bound]:
    """Range of f over (tail of a × all of b) ∪ (all of a × tail of b)."""
    lo: Bound = INF
    hi: Bound = -INF
    if a.tail:
        r = f(a.tlo, a.thi, b.lo, b.hi)
        lo, hi = min(lo, r[0]), max(hi, r[1])
    if b.tail:
        r = f(a.lo, a.hi, b.tlo, b.thi)
        lo, hi = min(lo, r[0]), max(hi, r[1])
    return lo, hi


def _combined_tail(a: Dist, b: Dist) -> int:
    return a.den * b.den - a.enumerated * b.enumerated


def convolve(p: dict[int, int], q: dict[int, int], budget: Budget) -> dict[int, int]:
    """Distribution of X + Y for independent weight maps p and q."""
    if not p or not q:
        return {}
    if len(q) == 1 or len(p) == 1:
        (k, wk), many = (next(iter(q.items())), p) if len(q) == 1 else (next(iter(p.items())), q)
        budget.charge(len(many), len(many))
        if wk == 1:
            return {v + k: w for v, w in many.items()}
        return {v + k: w * wk for v, w in many.items()}
    plo, phi, qlo, qhi = min(p), max(p), min(q), max(q)
    span = (phi - plo) + (qhi - qlo) + 1
    pairs = len(p) * len(q)
    if pairs <= 4096 or span > 8 * (len(p) + len(q)) + 64:
        budget.charge(pairs, min(span, pairs))
        out: dict[int, int] = {}
        get = out.get
        for x, wx in p.items():
            for y, wy in q.items():
                out[x + y] = get(x + y, 0) + wx * wy
        return out
    # Dense: Kronecker substitution, one big-integer product (GMP does the heavy lifting).
    pa = [p.get(v, 0) for v in range(plo, phi + 1)]
    qa = [q.get(v, 0) for v in range(qlo, qhi + 1)]
    slot_bits = (max(pa) * max(qa) * min(len(pa), len(qa))).bit_length() + 1
    nbytes = (slot_bits + 7) // 8
    budget.charge(span * nbytes // 8 + span, span)
    big_p = gmpy2.mpz(int.from_bytes(b"".join(x.to_bytes(nbytes, "little") for x in pa), "little"))
    big_q = gmpy2.mpz(int.from_bytes(b"".join(x.to_bytes(nbytes, "little") for x in qa), "little"))
    raw = int(big_p * big_q).to_bytes(span * nbytes, "little")
    base = plo + qlo
    frm = int.from_bytes
    return {
        base + i: w for i in range(span) if (w := frm(raw[i * nbytes : (i + 1) * nbytes], "little"))
    }


def add(a: Dist, b: Dist, budget: Budget) -> Dist:
    """X + Y."""
    lo, hi = _tail_union(a, b, lambda a0, a1, b0, b1: (_addb(a0, b0), _addb(a1, b1)))
    return Dist(convolve(a.pmf, b.pmf, budget), a.den * b.den, _combined_tail(a, b), lo, hi)


def neg(a: Dist) -> Dist:
    """-X."""
    return Dist({-v: w for v, w in a.pmf.items()}, a.den, a.tail, -a.thi, -a.tlo)


def shift(a: Dist, k: int) -> Dist:
    """X + k."""
    return Dist({v + k: w for v, w in a.pmf.items()}, a.den, a.tail, a.tlo + k, a.thi + k)


def power(a: Dist, n: int, budget: Budget) -> Dist:
    """The sum of n independent copies of X."""
    result: Dist | None = None
    base = a
    while n:
        if n & 1:
            result = base if result is None else add(result, base, budget)
        n >>= 1
        if n:
            base = add(base, base, budget)
    return const(0) if result is None else result


def pairwise(
    a: Dist,
    b: Dist,
    fn: Callable[[int, int], int],
    interval: Callable[[Bound, Bound, Bound, Bound], tuple[Bound, Bound]],
    budget: Budget,
) -> Dist:
    """f(X, Y) by enumerating pairs; `interval` bounds f over boxes, for the tail."""
    budget.charge(len(a.pmf) * len(b.pmf), len(a.pmf) * len(b.pmf))
    out: dict[int, int] = {}
    get = out.get
    for x, wx in a.pmf.items():
        for y, wy in b.pmf.items():
            v = fn(x, y)
            out[v] = get(v, 0) + wx * wy
    lo, hi = _tail_union(a, b, interval)
    return Dist(out, a.den * b.den, _combined_tail(a, b), lo, hi)


def mul_interval(a0: Bound, a1: Bound, b0: Bound, b1: Bound) -> tuple[Bound, Bound]:
    """Bounds of x*y over a box."""
    corners = [_mulb(x, y) for x in (a0, a1) for y in (b0, b1)]
    return min(corners), max(corners)


def div_interval(a0: Bound, a1: Bound, b0: Bound, b1: Bound) -> tuple[Bound, Bound]:
    """Bounds of x//y over a box whose y-range excludes 0 (else unbounded)."""
    if b0 <= 0 <= b1 or any(math.isinf(v) for v in (a0, a1)):
        return -INF, INF
    corners = [x / y for x in (a0, a1) for y in (b0, b1)]
    return math.floor(min(corners)), math.floor(max(corners))


def min_interval(a0: Bound, a1: Bound, b0: Bound, b1: Bound) -> tuple[Bound, Bound]:
    """Bounds of min(x, y) over a box."""
    return min(a0, b0), min(a1, b1)


def max_interval(a0: Bound, a1: Bound, b0: Bound, b1: Bound) -> tuple[Bound, Bound]:
    """Bounds of max(x, y) over a box."""
    return max(a0, b0), max(a1, b1)


def mixture(parts: Iterable[tuple[int, Dist]], den: int) -> Dist:
    """Σ weight_i/den · D_i, for D_i sharing one denominator."""
    out: dict[int, int] = {}
    tail = 0
    lo: Bound = INF
    hi: Bound = -INF
    sub_den = 1
    for weight, d in parts:
        sub_den = d.den
        for v, w in d.pmf.items():
            out[v] = out.get(v, 0) + weight * w
        if d.tail:
            tail += weight * d.tail
            lo, hi = min(lo, d.tlo), max(hi, d.thi)
    return Dist(out, den * sub_den, tail, lo, hi)
