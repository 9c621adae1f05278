"""Exact tail probabilities of one exploding die, in closed form (no enumeration)."""

from __future__ import annotations

from fractions import Fraction


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
