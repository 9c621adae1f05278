"""GraphQL: HazeActionOdds, the exact odds of an action roll."""

from __future__ import annotations

import strawberry

from api.graphql.haze.chance import HazeChance
from api.graphql.haze.rate_point import HazeRatePoint
from services.haze import ActionOdds


@strawberry.type(description="Exact P(success), P(fumble), P(failure), success-rate law.")
class HazeActionOdds:
    target: int
    difficulty: int
    arbitrary: bool
    success: HazeChance
    fumble: HazeChance
    failure: HazeChance
    success_rate: list[HazeRatePoint]

    @classmethod
    def from_domain(cls, odds: ActionOdds) -> HazeActionOdds:
        """Copy the service's odds."""
        return cls(
            target=odds.target,
            difficulty=odds.difficulty,
            arbitrary=odds.arbitrary,
            success=HazeChance.from_domain(odds.success),
            fumble=HazeChance.from_domain(odds.fumble),
            failure=HazeChance.from_domain(odds.failure),
            success_rate=[
                HazeRatePoint.from_domain(v, p) for v, p in sorted(odds.success_rate.items())
            ],
        )
