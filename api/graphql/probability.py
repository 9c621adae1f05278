"""GraphQL: Probability, the exact distribution report of an expression."""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.scalars import JSON

from api.graphql.check_odds import CheckOdds
from api.graphql.distribution_point import DistributionPoint
from api.graphql.percentile import Percentile
from api.graphql.scalars import Long
from services.dice import ProbabilityReport


@strawberry.type(description="The exact distribution of an expression and a check's odds.")
class Probability:
    expression: str
    formula: str
    min: Long | None = strawberry.field(description="Null when unbounded (open-ended dice).")
    max: Long | None = strawberry.field(description="Null when unbounded (open-ended dice).")
    mean: float
    stddev: float
    exact: bool = strawberry.field(description="True when no probability mass is left out.")
    error_bound: str = strawberry.field(
        description="Probability mass not enumerated (an open-ended tail), as a fraction."
    )
    check: CheckOdds | None
    distribution: list[DistributionPoint]
    percentiles: list[Percentile]
    json: JSON = strawberry.field(description="The full report, as REST returns it.")

    @classmethod
    def from_domain(cls, report: ProbabilityReport) -> Probability:
        """Copy the typed fields of a report and keep its full JSON."""
        data: dict[str, Any] = report.to_dict()
        check = data.get("check")
        return cls(
            expression=data["expression"],
            formula=data["formula"],
            min=data["min"],
            max=data["max"],
            mean=data["mean"],
            stddev=data["stddev"],
            exact=data["exact"],
            error_bound=data["tail"]["fraction"],
            check=CheckOdds.from_domain(check) if check is not None else None,
            distribution=[DistributionPoint.from_domain(p) for p in data["distribution"]],
            percentiles=[
                Percentile(percent=int(k), value=v) for k, v in data["percentiles"].items()
            ],
            json=JSON(data),
        )
