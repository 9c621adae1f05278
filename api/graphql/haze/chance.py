"""GraphQL: HazeChance, an exact probability as a fraction string and a float."""

from __future__ import annotations

from fractions import Fraction

import strawberry


@strawberry.type(description="An exact probability.")
class HazeChance:
    probability: str = strawberry.field(description='Exact fraction, e.g. "4/5".')
    float: float

    @classmethod
    def from_domain(cls, value: Fraction) -> HazeChance:
        """Wrap a Fraction."""
        return cls(probability=f"{value.numerator}/{value.denominator}", float=float(value))
