"""GraphQL: the Haze queries (checks, probabilities, generators). One type per module."""

from __future__ import annotations

import strawberry


@strawberry.type
class HazeQuery:
    @strawberry.field(description="Which rules text this part of the API implements.")
    def haze_rules_text(self) -> str:
        return "Haze"
