"""GraphQL: Chance, the one shape of an exact probability in every rules payload."""

from __future__ import annotations

from fractions import Fraction

import strawberry


@strawberry.type(description="An exact probability: a reduced fraction and its float value.")
class Chance:
    fraction: str = strawberry.field(description='Exact, as "numerator/denominator".')
    float: float

    @classmethod
    def from_fraction(cls, p: Fraction) -> Chance:
        """Render an exact probability."""
        return cls(fraction=f"{p.numerator}/{p.denominator}", float=float(p))
