"""Brute force: every sequence of draws the real roller can make, with its probability.

Independent of the exact-distribution code: it drives `roll` with a scripted RNG that
branches on each draw it has not been told yet, so it sees exactly the throws a real
roll makes (rerolls, explosions, group items). Branches less likely than `cutoff` are
not followed; their mass is returned as the tail.
"""

from __future__ import annotations

from fractions import Fraction

from services.dice import Limits, roll


class _Branch(Exception):
    def __init__(self, n: int) -> None:
        self.n = n


class _Script:
    def __init__(self, prefix: tuple[int, ...]) -> None:
        self.prefix = prefix
        self.i = 0

    def below(self, n: int) -> int:
        if self.i < len(self.prefix):
            x = self.prefix[self.i]
            self.i += 1
            return x
        raise _Branch(n)


def enumerate_totals(
    text: str, limits: Limits, cutoff: Fraction = Fraction(0), max_leaves: int = 50_000
) -> tuple[dict[int, Fraction], Fraction]:
    """P(total = v) for every v reached, and the probability of the branches cut."""
    out: dict[int, Fraction] = {}
    tail = Fraction(0)
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    leaves = 0
    while stack:
        prefix, p = stack.pop()
        try:
            total = roll(text, _Script(prefix), limits).total
        except _Branch as b:
            if p / b.n < cutoff:
                tail += p
                continue
            stack.extend(((*prefix, x), p / b.n) for x in range(b.n))
            continue
        leaves += 1
        assert leaves <= max_leaves, f"{text} has too many outcomes to enumerate"
        out[total] = out.get(total, 0) + p
    return out, tail
