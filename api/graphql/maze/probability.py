"""GraphQL: MazeProbability, an exact probability as a fraction string and a float."""

from __future__ import annotations

from fractions import Fraction

import strawberry


@strawberry.type(description="An exact probability: a fraction string and a float.")
class MazeProbability:
    fraction: str
    float: float

    @classmethod
    def from_domain(cls, p: Fraction) -> MazeProbability:
        """From an exact Fraction."""
        return cls(fraction=f"{p.numerator}/{p.denominator}", float=float(p))
