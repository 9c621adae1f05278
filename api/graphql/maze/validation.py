"""GraphQL: MazeValidation, the rules a character sheet breaks."""

from __future__ import annotations

import strawberry

from api.graphql.maze.issue import MazeIssue
from services.maze.character import Issue


@strawberry.type(description="Whether a character is valid, and every rule it breaks.")
class MazeValidation:
    valid: bool
    issues: list[MazeIssue]

    @classmethod
    def from_domain(cls, issues: list[Issue]) -> MazeValidation:
        """From the domain issues."""
        return cls(
            valid=not issues, issues=[MazeIssue(code=i.code, message=i.message) for i in issues]
        )
