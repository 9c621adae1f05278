"""GraphQL: CommandResult, what a command recorded, as the sender may see it."""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.scalars import JSON


@strawberry.type(description="The version after a command, its events and the view, redacted.")
class CommandResult:
    version: int
    duplicate: bool
    events: list[JSON]
    view: JSON

    @classmethod
    def from_domain(cls, result: dict[str, Any]) -> CommandResult:
        """From the use case's (already redacted) result."""
        return cls(
            version=result["version"],
            duplicate=result["duplicate"],
            events=result["events"],
            view=result["view"],
        )
