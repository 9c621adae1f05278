"""GraphQL: Odds, the probability of an event with its error bound."""

from __future__ import annotations

from typing import Any

import strawberry


@strawberry.type(
    description="P(event) as an exact fraction and a float; exact when errorBound is 0."
)
class Odds:
    probability: str = strawberry.field(description="Exact fraction (a lower bound if not exact).")
    float: float
    exact: bool
    error_bound: str = strawberry.field(description="The true value lies within this above.")

    @classmethod
    def from_domain(cls, odds: dict[str, Any]) -> Odds:
        """Copy odds from the report's JSON."""
        return cls(
            probability=odds["fraction"],
            float=odds["float"],
            exact=odds["exact"],
            error_bound=odds["error_bound"],
        )
