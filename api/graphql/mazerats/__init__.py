"""GraphQL: the Maze Rats queries (checks, probabilities, generators). One type per module."""

from __future__ import annotations

import strawberry


@strawberry.type
class MazeRatsQuery:
    @strawberry.field(description="Which rules text this part of the API implements.")
    def mazerats_rules_text(self) -> str:
        return "Maze Rats"
