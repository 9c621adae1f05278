"""GraphQL: HazeRatePoint, one success rate and its exact probability."""

from __future__ import annotations

from fractions import Fraction

import strawberry

from api.graphql.chance import Chance


@strawberry.type(description="P(success rate = value) on a face other than the fumble.")
class HazeRatePoint:
    value: int
    chance: Chance

    @classmethod
    def from_domain(cls, value: int, p: Fraction) -> HazeRatePoint:
        """One point of the success-rate distribution."""
        return cls(value=value, chance=Chance.from_fraction(p))
