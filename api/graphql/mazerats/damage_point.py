"""GraphQL: MazeRatsDamagePoint, one amount of damage and its exact chance."""

from __future__ import annotations

from fractions import Fraction

import strawberry

from api.graphql.chance import Chance


@strawberry.type(description="An amount of damage (0 is a miss) and its exact chance.")
class MazeRatsDamagePoint:
    damage: int
    chance: Chance

    @classmethod
    def from_domain(cls, damage: int, p: Fraction) -> MazeRatsDamagePoint:
        """Wrap one point of the damage distribution."""
        return cls(damage=damage, chance=Chance.from_fraction(p))
