"""GraphQL: DistributionPoint, one value of a distribution with its exact probability."""

from __future__ import annotations

from typing import Any

import strawberry

from api.graphql.scalars import Long


@strawberry.type(description="One value and its probability, as an exact fraction and a float.")
class DistributionPoint:
    value: Long
    probability: str = strawberry.field(description='Exact fraction, e.g. "5/36".')
    float: float

    @classmethod
    def from_domain(cls, point: dict[str, Any]) -> DistributionPoint:
        """Copy a point of the report's JSON (`value`, `fraction`, `float`)."""
        return cls(value=point["value"], probability=point["fraction"], float=point["float"])
