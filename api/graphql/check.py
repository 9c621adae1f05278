"""GraphQL: Check, the outcome of comparing a roll's total with a target."""

from __future__ import annotations

import strawberry

from api.graphql.scalars import Long
from services.dice import CheckResult


@strawberry.type(description="A check on the total (`1d20+3 >= 13`): success and margin.")
class Check:
    success: bool
    margin: Long = strawberry.field(description="Positive is better.")
    op: str
    total: Long
    target: Long

    @classmethod
    def from_domain(cls, check: CheckResult) -> Check:
        """Copy a check result."""
        return cls(
            success=check.success,
            margin=Long(check.margin),
            op=check.op,
            total=Long(check.total),
            target=Long(check.target),
        )
