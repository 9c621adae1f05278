"""GraphQL: HazeRatePoint, one success rate and its exact probability."""

from __future__ import annotations

from fractions import Fraction

import strawberry


@strawberry.type(description="P(success rate = value), as an exact fraction and a float.")
class HazeRatePoint:
    value: int
    probability: str
    float: float

    @classmethod
    def from_domain(cls, value: int, p: Fraction) -> HazeRatePoint:
        """One point of the success-rate distribution."""
        return cls(value=value, probability=f"{p.numerator}/{p.denominator}", float=float(p))
