"""Pricing an exact distribution from the AST, before computing anything.

Each node is estimated as (value range, distinct values, bits per weight). Work is
counted in 64-bit words touched: a convolution costs about (values × bits/64), a
pairwise operation (pairs × words per product), the keep/drop DP (cells × words).
"""

from __future__ import annotations

import math
from functools import reduce
from typing import NamedTuple

from services.dice.ast import (
    ROUNDING,
    Call,
    Check,
    Dice,
    DiceGroup,
    Group,
    Neg,
    Node,
    Num,
    Product,
    Sum,
)
from services.dice.errors import DiceLimitError
from services.dice.exact import Bound, div_interval, max_interval, min_interval, mul_interval
from services.dice.limits import Limits
from services.dice.termdist import single_roll


class Est(NamedTuple):
    """Estimated shape of a node's distribution."""

    lo: Bound
    hi: Bound
    size: int
    bits: float


def chain_levels(d: Dice, eps: float) -> int:
    """How many throws of an exploding die are enumerated to leave at most eps."""
    roll, den = single_roll(d)
    explodes = d.explode_faces() & set(roll)
    if not explodes:
        return 1
    q = sum(roll[f] for f in explodes) / den
    return max(1, math.ceil(math.log(eps) / math.log(q)))


def estimate(node: Node | Check, limits: Limits, eps: float) -> int:
    """Refuse an expression whose distribution is too big; return the estimated cost."""
    return estimate_shape(node, limits, eps)[0]


def estimate_shape(node: Node | Check, limits: Limits, eps: float) -> tuple[int, int]:
    """(estimated cost, estimated distinct values of the answer's largest table); refuses
    an expression whose distribution is too big to compute."""
    pricer = _Pricer(limits, eps)
    if isinstance(node, Check):
        left, right = pricer.est(node.left), pricer.est(node.right)
        pricer.charge(0, 0, left.size + right.size, 0)
        margin = pricer.pair(left, right, lambda a0, a1, b0, b1: (a0 - b1, a1 - b0), pairwise=False)
        return pricer.cost, max(left.size, margin.size)
    return pricer.cost, pricer.est(node).size


class _Pricer:
    def __init__(self, limits: Limits, eps: float) -> None:
        self.limits = limits
        self.eps = eps
        self.cost = 0
        self.rational = False  # inside floor/ceil/round values are fractions: no span cap

    def charge(self, lo: Bound, hi: Bound, size: int, bits: float) -> Est:
        lim = self.limits
        if size > lim.max_support or self.cost > lim.max_cost:
            what = (
                f"about {size} distinct values"
                if size > lim.max_support
                else (f"about {self.cost} steps")
            )
            raise DiceLimitError(
                f"the exact distribution of this expression is too large to compute ({what}; "
                f"limits: {lim.max_support} values, {lim.max_cost} steps)",
                code="distribution_too_large",
            )
        return Est(lo, hi, size, bits)

    def pair(self, a: Est, b: Est, interval: object, *, pairwise: bool = True) -> Est:
        lo, hi = interval(a.lo, a.hi, b.lo, b.hi)  # type: ignore[operator]
        bits = a.bits + b.bits
        size = a.size * b.size if self.rational else min(a.size * b.size, _span(lo, hi))
        words = 1 + bits / 64
        self.cost += int((a.size * b.size if pairwise else size) * words)
        return self.charge(lo, hi, size, bits)

    def est(self, n: Node) -> Est:
        if isinstance(n, Num):
            return Est(n.value, n.value, 1, 0)
        if isinstance(n, Dice):
            return self.dice(n)
        if isinstance(n, Group):
            return self.est(n.inner)
        if isinstance(n, Neg):
            e = self.est(n.operand)
            return Est(-e.hi, -e.lo, e.size, e.bits)
        if isinstance(n, Sum):
            acc = self.est(n.first)
            for op, s in n.rest:
                e = self.est(s)
                if op == "-":
                    e = Est(-e.hi, -e.lo, e.size, e.bits)
                add = lambda a0, a1, b0, b1: (a0 + b0, a1 + b1)  # noqa: E731
                acc = self.pair(acc, e, add, pairwise=e.size > 1 and acc.size > 1)
            return acc
        if isinstance(n, Product):
            acc = self.est(n.first)
            for mul, s in n.rest:
                acc = self.pair(acc, self.est(s), mul_interval if mul == "*" else div_interval)
            return acc
        if isinstance(n, DiceGroup):
            return self.group(n)
        assert isinstance(n, Call)
        if n.fn in ROUNDING:
            outer, self.rational = self.rational, True
            e = self.est(n.args[0])
            self.rational = outer
            lo, hi = _widen(e.lo, -1), _widen(e.hi, 1)
            return self.charge(lo, hi, min(e.size, _span(lo, hi)), e.bits)
        if n.fn == "abs":
            e = self.est(n.args[0])
            self.cost += e.size
            return Est(0, max(abs(e.lo), abs(e.hi)), e.size, e.bits)
        interval = min_interval if n.fn == "min" else max_interval
        return reduce(lambda a, b: self.pair(a, b, interval), [self.est(a) for a in n.args])

    def group(self, n: DiceGroup) -> Est:
        """Keep/drop among item totals: states are the sorted best k so far."""
        items = [self.est(i) for i in n.items]
        if n.keep is None:
            add = lambda a0, a1, b0, b1: (a0 + b0, a1 + b1)  # noqa: E731
            return reduce(lambda a, b: self.pair(a, b, add), items)
        k, high = n.keep.kept(len(items))
        cap = self.limits.max_support + 1
        states = 1
        seen = 0  # values an item can take, summed: a state is a sorted k-tuple of them
        for e in items:
            self.cost += states * e.size
            seen += e.size
            tuples = _capped_comb(seen + k - 1, k, cap)
            states = min(states * e.size, tuples, cap)
            self.charge(0, 0, states, 0)
        los = sorted((e.lo for e in items), reverse=high)[:k]
        his = sorted((e.hi for e in items), reverse=high)[:k]
        lo, hi = sum(los), sum(his)
        size = min(states, _span(lo, hi))
        return self.charge(lo, hi, size, sum(e.bits for e in items))

    def dice(self, d: Dice) -> Est:
        roll, den = single_roll(d)
        faces = sorted({d.clamp(f) for f in roll})
        levels = chain_levels(d, self.eps)
        if d.keep is not None and d.explode is not None and d.explode.kind != "compound":
            return self.pool_keep(d, len(faces), faces[-1], levels)
        per_lo, per_hi = faces[0], faces[-1] * levels
        if d.counting:
            per_lo, per_hi = -levels, levels
        unit_bits = levels * math.log2(den)
        n = d.count
        self.cost += len(faces) * levels * levels
        if d.keep is not None:
            k, _ = d.keep.kept(n)
            span = per_hi - per_lo + 1
            cells = span * max(k, 1) * max(k, 1) * span * (n + 1) // 2
            self.cost += int(cells * (1 + n * unit_bits / 64))
            n = k
        lo, hi = n * per_lo, n * per_hi
        size = _span(lo, hi)
        # Repeated squaring: the last products dominate, about size × bits.
        self.cost += int(size * (1 + d.count * unit_bits / 64))
        return self.charge(lo, hi, size, d.count * unit_bits)

    def pool_keep(self, d: Dice, values: int, top: int, levels: int) -> Est:
        """An exploding pool with keep: states are sorted best-k tuples of unit values."""
        assert d.keep is not None
        k = d.keep.n
        states = _capped_comb(2 * values + k - 1, k, self.limits.max_support + 1)
        per_die = min(states, values * (levels + k))
        self.cost += states * values * (levels + k) + d.count * states * per_die
        self.charge(0, 0, states, 0)
        lo, hi = (-k, k) if d.counting else (0, k * top)
        return self.charge(lo, hi, _span(lo, hi), 64)


def _capped_comb(n: int, k: int, cap: int) -> int:
    """min(C(n, k), cap), without computing a huge binomial (k can be 10^12)."""
    k = min(k, n - k)
    if k < 0:
        return 0
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
        if out >= cap:
            return cap
    return out


def _widen(b: Bound, by: int) -> Bound:
    return b if isinstance(b, float) else b + by


def _span(lo: Bound, hi: Bound) -> int:
    if isinstance(lo, float) or isinstance(hi, float):
        return 1 << 62
    return int(hi - lo) + 1
