"""GraphQL: MazeRatsOpposedOdds, each side's exact chance to win an opposed save."""

from __future__ import annotations

import strawberry

from api.graphql.mazerats.chance import MazeRatsChance
from services.mazerats.opposed import OpposedOdds


@strawberry.type(description="Exact chances of an opposed save: attacker, defender, tie.")
class MazeRatsOpposedOdds:
    attacker: MazeRatsChance
    defender: MazeRatsChance
    tie: MazeRatsChance

    @classmethod
    def from_domain(cls, odds: OpposedOdds) -> MazeRatsOpposedOdds:
        """Wrap the exact odds."""
        return cls(
            attacker=MazeRatsChance.from_domain(odds.attacker),
            defender=MazeRatsChance.from_domain(odds.defender),
            tie=MazeRatsChance.from_domain(odds.tie),
        )
