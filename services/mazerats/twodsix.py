"""The exact distribution of 2d (two six-sided dice), the only roll Maze Rats uses."""

from __future__ import annotations

from fractions import Fraction

# Ways to roll each total of 2d6 out of 36.
WAYS: dict[int, int] = {t: 6 - abs(t - 7) for t in range(2, 13)}


def pmf(bonus: int = 0) -> dict[int, Fraction]:
    """P(2d6 + bonus == total) for every total."""
    return {t + bonus: Fraction(w, 36) for t, w in WAYS.items()}


def at_least(needed: int) -> Fraction:
    """P(2d6 >= needed)."""
    return Fraction(sum(w for t, w in WAYS.items() if t >= needed), 36)
