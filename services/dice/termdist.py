"""Exact distribution of one dice term: reroll, explosion chains, keep/drop, counting."""

from __future__ import annotations

import math
from collections.abc import Callable

from services.dice.ast import Dice
from services.dice.exact import INF, Bound, Budget, Dist, power
from services.dice.limits import Limits
from services.dice.pooldist import pool_keep


def single_roll(d: Dice) -> tuple[dict[int, int], int]:
    """Weights of one throw's face value after the reroll rule, and their denominator."""
    s = d.sides
    mult: dict[int, int] = {}
    for v in d.face_values():
        mult[v] = mult.get(v, 0) + 1
    if d.reroll is None:
        return mult, s
    hit = d.reroll.when.passing(d.face_values())
    m = sum(c for v, c in mult.items() if v in hit)
    if not d.reroll.once:
        return {v: c for v, c in mult.items() if v not in hit}, s - m
    return {v: c * (s * (v not in hit) + m) for v, c in mult.items()}, s * s


def scorer(d: Dice) -> Callable[[int], int]:
    """Per-unit score: +1 success, -1 failure (+1 for `cf` alone)."""
    return d.score


def _chain(
    roll: dict[int, int],
    den: int,
    explodes: frozenset[int],
    first: Callable[[int], int],
    nxt: Callable[[int], int],
    eps: float,
    budget: Budget,
) -> Dist:
    """Σ of scores along an explosion chain, truncated with an exact, bounded tail."""
    e_w = {f: w for f, w in roll.items() if f in explodes}
    n_w = {f: w for f, w in roll.items() if f not in explodes}
    q = sum(e_w.values()) / den
    levels = 1 if q == 0 else max(1, math.ceil(math.log(eps) / math.log(q)))
    # Bounds of any continuation chain (a chain starting with a `nxt` throw).
    e_next = [nxt(f) for f in e_w]
    n_next = [nxt(f) for f in n_w]
    cont_lo: Bound = min(n_next) if min(e_next, default=0) >= 0 else -INF
    cont_hi: Bound = max(n_next) if max(e_next, default=0) <= 0 else INF

    def level(score: Callable[[int], int], inner: Dist | None) -> Dist:
        out: dict[int, int] = {}
        inner_den = 1 if inner is None else inner.den
        for f, w in n_w.items():
            v = score(f)
            out[v] = out.get(v, 0) + w * inner_den
        if inner is None:
            scores = [score(f) for f in e_w]
            lo = min(scores) + cont_lo if scores else INF
            hi = max(scores) + cont_hi if scores else -INF
            return Dist(out, den, sum(e_w.values()), lo, hi)
        budget.charge(len(e_w) * len(inner.pmf), len(out) + len(inner.pmf))
        tail = 0
        lo, hi = INF, -INF
        for f, w in e_w.items():
            k = score(f)
            for v, wi in inner.pmf.items():
                out[v + k] = out.get(v + k, 0) + w * wi
            tail += w * inner.tail
            lo, hi = min(lo, inner.tlo + k), max(hi, inner.thi + k)
        return Dist(out, den * inner.den, tail, lo, hi)

    if len(e_w) == 1:
        # One exploding face: j explosions then a final face, in closed form.
        ((e, we),) = e_w.items()
        budget.charge(levels * len(n_w), levels * len(n_w))
        out: dict[int, int] = {}
        get = out.get
        step = nxt(e)
        firsts = list(_group(first, n_w).items())
        nexts = list(_group(nxt, n_w).items())
        for j in range(levels):
            base = 0 if j == 0 else first(e) + (j - 1) * step
            mult = we**j * den ** (levels - 1 - j)
            for v, w in firsts if j == 0 else nexts:
                out[base + v] = get(base + v, 0) + w * mult
        top = first(e) + (levels - 1) * step
        return Dist(out, den**levels, we**levels, top + cont_lo, top + cont_hi)

    inner: Dist | None = None
    for _ in range(levels - 1):
        inner = level(nxt, inner)
    return level(first, inner)


def _group(score: Callable[[int], int], weights: dict[int, int]) -> dict[int, int]:
    """Weights by score: faces that score alike (when counting) are merged."""
    out: dict[int, int] = {}
    for f, w in weights.items():
        v = score(f)
        out[v] = out.get(v, 0) + w
    return out


def term_distribution(d: Dice, limits: Limits, eps: float, budget: Budget) -> Dist:
    """Exact distribution of a dice term's value."""
    roll, den = single_roll(d)
    explodes = d.explode_faces() & set(roll)
    kind = d.explode.kind if d.explode else ""
    g = scorer(d)
    cl = d.clamp
    pen = 1 if kind == "penetrate" else 0
    if d.keep is not None and kind in ("explode", "penetrate"):
        return pool_keep(d, roll, den, explodes, eps, budget)
    if not explodes:
        unit = Dist(_group(cl, roll), den)
    elif kind == "compound" or not d.counting:
        unit = _chain(roll, den, explodes, cl, lambda f: cl(f) - pen, eps, budget)
    else:
        # Each throw of a `!`/`!p` pool is scored on its own.
        per_die = _chain(
            roll, den, explodes, lambda f: g(cl(f)), lambda f: g(cl(f) - pen), eps, budget
        )
        return power(per_die, d.count, budget)
    if d.keep is not None:
        k, high = d.keep.kept(d.count)
        return keep(unit, d.count, k, high, g if d.counting else None, budget)
    if d.counting:
        unit = _map(unit, g)
    return power(unit, d.count, budget)


def _map(a: Dist, g: Callable[[int], int]) -> Dist:
    out: dict[int, int] = {}
    for v, w in a.pmf.items():
        out[g(v)] = out.get(g(v), 0) + w
    return Dist(out, a.den, a.tail, -1, 1)


def keep(
    unit: Dist, n: int, k: int, high: bool, g: Callable[[int], int] | None, budget: Budget
) -> Dist:
    """Σ score of the k highest (or lowest) of n independent units.

    Values are visited best-first; a state is (units placed, score so far) while fewer
    than k are kept. How many of the remaining units show the current value is
    binomial; only the cases that keep fewer than k so far become states. All the cases
    that reach k at this value end the same way (k - c more units of this value kept,
    the rest at this value or below), so their total weight comes in closed form:
    Σ_{m ≥ k-c} C(r, m) p^m q^(r-m) = (p + q)^r - Σ_{m < k-c} C(r, m) p^m q^(r-m),
    with r = n - c units left. The work per value is O(states · k), whatever the pool
    size (order statistics as icepool computes them); only the integers grow with n.
    """
    score = g if g is not None else (lambda v: v)
    vals = sorted(unit.pmf, reverse=high)
    weights = [unit.pmf[v] for v in vals]
    suffix = [0] * (len(vals) + 1)
    for i in range(len(vals) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + weights[i]
    finals: dict[int, int] = {}
    states: dict[tuple[int, int], int] = {(0, 0): 1}
    if k == 0:
        finals[0] = suffix[0] ** n
        states = {}
    for i, v in enumerate(vals):
        if not states:
            break
        sv, pv, rest, here = score(v), weights[i], suffix[i + 1], suffix[i]
        budget.charge(len(states) * (k + 1), len(states) + len(finals))
        rest_pow: dict[int, int] = {}
        pv_pow = [1] * (k + 1)
        for m in range(1, k + 1):
            pv_pow[m] = pv_pow[m - 1] * pv
        new: dict[tuple[int, int], int] = {}
        for (c, s), w in states.items():
            r, need = n - c, k - c
            reach = here**r
            binom = 1
            for m in range(min(need, r + 1)):
                if m:
                    binom = binom * (r - m + 1) // m
                weight = w * binom * pv_pow[m]
                key = (c + m, s + m * sv)
                new[key] = new.get(key, 0) + weight
                q = rest_pow.get(r - m)
                if q is None:
                    q = rest_pow[r - m] = rest ** (r - m)
                reach -= binom * pv_pow[m] * q
            if reach:
                total = s + need * sv
                finals[total] = finals.get(total, 0) + w * reach
        states = new
    den = unit.den**n
    enumerated = sum(finals.values())
    tail = den - enumerated
    lo: Bound
    hi: Bound
    if g is not None:
        lo, hi = -k, k
    elif high:
        lo, hi = (unit.tlo + (k - 1) * unit.lo if k else 0), INF if k else 0
    else:
        lo, hi = k * unit.lo, INF if k else 0
    return Dist({v: w for v, w in finals.items() if w}, den, tail, lo, hi)
