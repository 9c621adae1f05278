"""GraphQL: CheckOdds, the chances of a check and the distribution of its margin."""

from __future__ import annotations

from typing import Any

import strawberry

from api.graphql.distribution_point import DistributionPoint
from api.graphql.odds import Odds


@strawberry.type(description="A check's success and failure odds and its margin distribution.")
class CheckOdds:
    op: str
    success: Odds
    failure: Odds
    margin: list[DistributionPoint] = strawberry.field(
        description="Distribution of the margin (positive is better)."
    )

    @classmethod
    def from_domain(cls, check: dict[str, Any]) -> CheckOdds:
        """Copy the check part of the report's JSON."""
        return cls(
            op=check["op"],
            success=Odds.from_domain(check["success"]),
            failure=Odds.from_domain(check["failure"]),
            margin=[DistributionPoint.from_domain(p) for p in check["margin"]],
        )
