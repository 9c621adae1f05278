"""GraphQL: the The Maze queries (checks, probabilities, generators). One type per module."""

from __future__ import annotations

import strawberry


@strawberry.type
class MazeQuery:
    @strawberry.field(description="Which rules text this part of the API implements.")
    def maze_rules_text(self) -> str:
        return "The Maze"
