"""GraphQL: MazeRatsOpposedOdds, each side's exact chance to win an opposed save."""

from __future__ import annotations

import strawberry

from api.graphql.chance import Chance
from services.mazerats.opposed import OpposedOdds


@strawberry.type(description="Exact chances of an opposed save: attacker, defender, tie.")
class MazeRatsOpposedOdds:
    attacker: Chance
    defender: Chance
    tie: Chance

    @classmethod
    def from_domain(cls, odds: OpposedOdds) -> MazeRatsOpposedOdds:
        """Wrap the exact odds."""
        return cls(
            attacker=Chance.from_fraction(odds.attacker),
            defender=Chance.from_fraction(odds.defender),
            tie=Chance.from_fraction(odds.tie),
        )
