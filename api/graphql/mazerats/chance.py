"""GraphQL: MazeRatsChance, an exact probability as a fraction and a float."""

from __future__ import annotations

from fractions import Fraction

import strawberry


@strawberry.type(description="An exact probability: the fraction (e.g. '5/12') and its float.")
class MazeRatsChance:
    fraction: str
    probability: float

    @classmethod
    def from_domain(cls, p: Fraction) -> MazeRatsChance:
        """Wrap an exact Fraction."""
        return cls(fraction=f"{p.numerator}/{p.denominator}", probability=float(p))
