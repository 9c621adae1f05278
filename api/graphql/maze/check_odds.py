"""GraphQL: MazeCheckOdds, the exact chances of a check."""

from __future__ import annotations

import strawberry

from api.graphql.chance import Chance
from api.graphql.maze.half import MazeHalf
from api.graphql.maze.outcome_odds import MazeOutcomeOdds
from services.maze.odds import CheckOdds


@strawberry.type(description="Exact P(success), P(each band) and taking half against rolling.")
class MazeCheckOdds:
    die: int
    modifier: int
    dc: int
    success: Chance
    bands: list[MazeOutcomeOdds]
    half: MazeHalf | None

    @classmethod
    def from_domain(cls, odds: CheckOdds) -> MazeCheckOdds:
        """From the domain odds."""
        return cls(
            die=odds.spec.die,
            modifier=odds.spec.modifier,
            dc=odds.spec.dc,
            success=Chance.from_fraction(odds.success),
            bands=[MazeOutcomeOdds.from_domain(b.value, p) for b, p in odds.bands.items()],
            half=MazeHalf.from_domain(odds.half) if odds.half else None,
        )
