"""Keep/drop over pools that grow by explosions (`4d6!kh3`), exactly.

Each throw of a `!` or `!p` die is its own unit, so the kept units can come from any
die's chain. Only the best k units matter, so a die is summarised by the best k values
of its chain (a sorted tuple), and dice are merged by keeping the best k of the union.

A chain is followed throw by throw. Once further explosions can no longer change a
chain's best k (the tuple is full and no exploding value would enter it), the rest of
the chain is summed in closed form: it ends on a non-exploding face f with probability
w(f) / w(non-exploding). For the usual `!` on the highest face that happens after k
explosions, so the result is exact; otherwise the chain is followed to the same depth
as any explosion and the rest is a stated tail.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from fractions import Fraction

from services.dice.ast import Dice
from services.dice.errors import DistributionUnsupported
from services.dice.exact import Bound, Budget, Dist

Best = tuple[int, ...]


def pool_keep(
    d: Dice, roll: dict[int, int], den: int, explodes: frozenset[int], eps: float, budget: Budget
) -> Dist:
    """Distribution of keep-highest/lowest over an exploding pool, scored or summed."""
    assert d.keep is not None and d.explode is not None
    if d.keep.mode in ("dh", "dl"):
        raise DistributionUnsupported(
            f"{d.notation()}: dropping from a pool that grows by explosions has no exact "
            "distribution here (how many dice are kept depends on the explosions); "
            "keep (kh/kl) and compound explosions (!!) are supported",
            position=d.pos,
        )
    k, high = d.keep.n, d.keep.mode == "kh"
    pen = 1 if d.explode.kind == "penetrate" else 0

    def first(f: int) -> int:
        return d.clamp(f)

    def nxt(f: int) -> int:
        return d.clamp(f) - pen

    def insert(best: Best, v: int) -> Best:
        return tuple(sorted((*best, v), reverse=high)[:k])

    per_die, tail = _chain_best(roll, den, explodes, first, nxt, insert, k, eps, budget)
    pool: dict[Best, Fraction] = {(): Fraction(1)}
    for _ in range(d.count):
        budget.charge(len(pool) * len(per_die), len(pool) * len(per_die))
        merged: dict[Best, Fraction] = {}
        for a, wa in pool.items():
            for b, wb in per_die.items():
                key = tuple(sorted((*a, *b), reverse=high)[:k])
                merged[key] = merged.get(key, 0) + wa * wb
        pool = merged
    score: Callable[[int], int] = d.score if d.counting else (lambda v: v)
    values: dict[int, Fraction] = {}
    for best, w in pool.items():
        v = sum(score(x) for x in best)
        values[v] = values.get(v, 0) + w
    pool_tail = 1 - (1 - tail) ** d.count
    every = [first(f) for f in roll] + [nxt(f) for f in roll]
    if d.counting:
        lo: Bound = -k
        hi: Bound = k
    else:
        lo, hi = min(0, k * min(every)), max(0, k * max(every))
    return to_dist(values.items(), pool_tail, lo, hi)


def _chain_best(
    roll: dict[int, int],
    den: int,
    explodes: frozenset[int],
    first: Callable[[int], int],
    nxt: Callable[[int], int],
    insert: Callable[[Best, int], Best],
    k: int,
    eps: float,
    budget: Budget,
) -> tuple[dict[Best, Fraction], Fraction]:
    """One die's chain: P(best k values = tuple), and the mass left unenumerated."""
    p = {f: Fraction(w, den) for f, w in roll.items()}
    stop = sum(w for f, w in p.items() if f not in explodes)
    q = 1 - float(stop)
    levels = max(1, math.ceil(math.log(eps) / math.log(q))) if q > 0 else 1
    finals: dict[Best, Fraction] = {}
    live: dict[Best, Fraction] = {(): Fraction(1)}
    for level in range(levels + k):
        if not live:
            break
        value = first if level == 0 else nxt
        budget.charge(len(live) * len(p), len(live) + len(finals))
        grown: dict[Best, Fraction] = {}
        for best, w in live.items():
            if level and len(best) == k and all(insert(best, nxt(e)) == best for e in explodes):
                # Saturated: only the final, non-exploding face can still enter.
                for f, wf in p.items():
                    if f not in explodes:
                        key = insert(best, nxt(f))
                        finals[key] = finals.get(key, 0) + w * wf / stop
                continue
            for f, wf in p.items():
                key = insert(best, value(f))
                target = grown if f in explodes else finals
                target[key] = target.get(key, 0) + w * wf
        live = grown
    return finals, sum(live.values(), Fraction(0))


def to_dist(items: Iterable[tuple[int, Fraction]], tail: Fraction, lo: Bound, hi: Bound) -> Dist:
    """Integer weights over the least common denominator of exact probabilities."""
    pairs = [(v, w) for v, w in items if w]
    den = math.lcm(tail.denominator, *(w.denominator for _, w in pairs))
    pmf = {v: w.numerator * (den // w.denominator) for v, w in pairs}
    tail_w = tail.numerator * (den // tail.denominator)
    return Dist(pmf, den, tail_w, lo if tail_w else math.inf, hi if tail_w else -math.inf)
