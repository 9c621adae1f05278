"""GraphQL: SessionView, a session's state as one viewer sees it."""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.scalars import JSON


@strawberry.type(description="A session's state for the token's viewer, and its version.")
class SessionView:
    session_id: strawberry.ID
    role: str
    member: str | None
    version: int
    view: JSON

    @classmethod
    def from_domain(cls, looked: dict[str, Any]) -> SessionView:
        """From the use case's (already redacted) result."""
        return cls(
            session_id=strawberry.ID(looked["session_id"]),
            role=looked["role"],
            member=looked["member"],
            version=looked["version"],
            view=looked["view"],
        )
