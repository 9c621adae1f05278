"""GraphQL: MazeOutcomeOdds, the probability of one named outcome (a band, an injury)."""

from __future__ import annotations

from fractions import Fraction

import strawberry

from api.graphql.chance import Chance


@strawberry.type(description="The exact probability of one named outcome.")
class MazeOutcomeOdds:
    outcome: str
    probability: Chance

    @classmethod
    def from_domain(cls, outcome: str, p: Fraction) -> MazeOutcomeOdds:
        """From an outcome name and its exact probability."""
        return cls(outcome=outcome, probability=Chance.from_fraction(p))
