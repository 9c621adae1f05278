"""GraphQL: MazeRatsSaveOdds, the exact chance a save succeeds."""

from __future__ import annotations

from fractions import Fraction

import strawberry

from api.graphql.chance import Chance


@strawberry.type(description="The exact chance that a save succeeds.")
class MazeRatsSaveOdds:
    bonus: int
    success: Chance

    @classmethod
    def from_domain(cls, bonus: int, success: Fraction) -> MazeRatsSaveOdds:
        """Wrap the save bonus and its exact success chance."""
        return cls(bonus=bonus, success=Chance.from_fraction(success))
