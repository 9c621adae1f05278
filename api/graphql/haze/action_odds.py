"""GraphQL: HazeActionOdds, the exact odds of an action roll."""

from __future__ import annotations

import strawberry

from api.graphql.chance import Chance
from api.graphql.haze.rate_point import HazeRatePoint
from services.haze import ActionOdds


@strawberry.type(
    description="Exact P(success), P(failure), the fumble as its own bucket, and the "
    "success-rate law of the nine other faces (Σ successRate + fumble = 1)."
)
class HazeActionOdds:
    target: int
    difficulty: int
    arbitrary: bool
    success: Chance
    fumble: Chance
    fumble_success_rate: int | None
    fumble_succeeds: bool
    failure: Chance
    success_rate: list[HazeRatePoint]

    @classmethod
    def from_domain(cls, odds: ActionOdds) -> HazeActionOdds:
        """Copy the service's odds."""
        return cls(
            target=odds.target,
            difficulty=odds.difficulty,
            arbitrary=odds.arbitrary,
            success=Chance.from_fraction(odds.success),
            fumble=Chance.from_fraction(odds.fumble),
            fumble_success_rate=odds.fumble_success_rate,
            fumble_succeeds=odds.fumble_succeeds,
            failure=Chance.from_fraction(odds.failure),
            success_rate=[HazeRatePoint.from_domain(v, p) for v, p in odds.success_rate.items()],
        )
