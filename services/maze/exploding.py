"""Exact tail probabilities of one exploding die, in closed form (no enumeration)."""

from __future__ import annotations

from fractions import Fraction
from math import gcd


def p_at_least(sides: int, target: int) -> Fraction:
    """P(an exploding d`sides` totals at least `target`), exactly.

    The total is sides·k + r with k explosions and a last face r in 1..sides−1, each
    with probability sides^−(k+1). With q = (target−1) // sides and u = target − sides·q,
    the totals reaching `target` are every k > q and, for k = q, the faces r ≥ u:
    P = (sides − u + 1) / sides^(q+1).
    """
    if target <= 1:
        return Fraction(1)
    q = (target - 1) // sides
    u = target - sides * q
    return Fraction(sides - u + 1, sides ** (q + 1))


def p_margin_at_least(sides: int, modifier: int, dc: int, margin: int) -> Fraction:
    """P(die + modifier − dc ≥ margin) for an exploding die."""
    return p_at_least(sides, dc + margin - modifier)


def p_difference_at_least(s: int, t: int, k: int) -> Fraction:
    """P(X − Y ≥ k) for independent exploding dice X (d`s`) and Y (d`t`), exactly.

    Y = t·b + u (b ≥ 0 explosions, last face u in 1..t−1) with probability t^−(b+1), so
    P = Σ_u Σ_b t^−(b+1) · P(X ≥ k + t·b + u). Once k + t·b + u ≥ 2 the tail of X is
    (s − v + 1)/s^(q+1); raising b by L = s/gcd(s, t) raises the target by lcm(s, t), so
    q grows by t/gcd(s, t) and v is unchanged: every L steps the term is multiplied by
    ratio = t^−L · s^−(t/g). The infinite sum over b is a finite head (targets ≤ 1, where
    P(X ≥ ·) = 1), one period of L terms, and the geometric factor 1/(1 − ratio).
    """
    g = gcd(s, t)
    period = s // g
    ratio = Fraction(1, t**period * s ** (t // g))
    total = Fraction(0)
    for u in range(1, t):
        # First b whose target k + t·b + u is at least 2 (below that P(X ≥ target) = 1).
        b0 = max(0, -((k + u - 2) // t))
        head = (1 - Fraction(1, t**b0)) / (t - 1)  # Σ_{b<b0} t^−(b+1)
        cycle = sum(
            (
                Fraction(1, t ** (b + 1)) * p_at_least(s, k + t * b + u)
                for b in range(b0, b0 + period)
            ),
            Fraction(0),
        )
        total += head + cycle / (1 - ratio)
    return total
