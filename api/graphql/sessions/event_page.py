"""GraphQL: SessionEventPage, a page of a viewer's events."""

from __future__ import annotations

from typing import Any

import strawberry

from api.graphql.sessions.session_event import SessionEvent


@strawberry.type(description="Redacted events after a version, and the session's version.")
class SessionEventPage:
    version: int
    events: list[SessionEvent]

    @classmethod
    def from_domain(cls, page: dict[str, Any]) -> SessionEventPage:
        """From the use case's (already redacted) page."""
        return cls(
            version=page["version"], events=[SessionEvent.from_domain(e) for e in page["events"]]
        )
