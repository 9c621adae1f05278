"""GraphQL: MazeLoot and MazeLootOdds, a loot check and the chances of each class."""

from __future__ import annotations

from fractions import Fraction

import strawberry

from api.graphql.maze.outcome_odds import MazeOutcomeOdds
from api.graphql.maze.throw import MazeThrow
from api.graphql.rolled import Rolled
from services.maze.loot import LootOutcome


@strawberry.type(description="A loot check: dice, total and the class of loot it gives.")
class MazeLoot(Rolled):
    seed: str
    dice: list[MazeThrow]
    total: int
    loot_class: str

    @classmethod
    def from_domain(cls, outcome: LootOutcome, seed: str) -> MazeLoot:
        """From the domain outcome and its seed."""
        return cls(
            seed=seed,
            dice=[MazeThrow.from_domain(t) for t in outcome.dice],
            total=outcome.total,
            loot_class=outcome.loot_class,
        )


@strawberry.type(description="The exact probability of each class of loot.")
class MazeLootOdds:
    classes: list[MazeOutcomeOdds]

    @classmethod
    def from_domain(cls, odds: dict[str, Fraction]) -> MazeLootOdds:
        """From the domain odds, chart order."""
        return cls(classes=[MazeOutcomeOdds.from_domain(n, p) for n, p in odds.items()])
