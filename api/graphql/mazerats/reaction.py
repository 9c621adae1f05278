"""GraphQL: MazeRatsReaction, the leader's WIL save against an NPC of unknown disposition."""

from __future__ import annotations

from fractions import Fraction

import strawberry

from api.graphql.chance import Chance
from api.graphql.mazerats.save import MazeRatsSave
from api.graphql.rolled import Rolled
from services.mazerats.encounters import Reaction


@strawberry.type(description="A reaction roll: the WIL save; success means cooperative.")
class MazeRatsReaction(Rolled):
    save: MazeRatsSave
    cooperative: bool
    cooperative_odds: Chance
    seed: str

    @classmethod
    def from_domain(cls, reaction: Reaction, odds: Fraction, seed: str) -> MazeRatsReaction:
        """Wrap a reaction, its exact odds and seed."""
        return cls(
            save=MazeRatsSave.from_domain(reaction.save, seed),
            cooperative=reaction.cooperative,
            cooperative_odds=Chance.from_fraction(odds),
            seed=seed,
        )
