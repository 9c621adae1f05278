"""GraphQL: Percentile, the smallest value reaching a cumulative probability."""

from __future__ import annotations

import strawberry

from api.graphql.scalars import Long


@strawberry.type(description="The smallest value whose cumulative probability reaches percent.")
class Percentile:
    percent: int
    value: Long
