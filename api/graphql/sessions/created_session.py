"""GraphQL: CreatedSession, a new session with its GM and spectator tokens."""

from __future__ import annotations

import strawberry

from api.sessions.usecases import Created


@strawberry.type(description="A new session: its id, version and first role tokens (secrets).")
class CreatedSession:
    session_id: strawberry.ID
    gm_token: str
    spectator_token: str
    version: int

    @classmethod
    def from_domain(cls, created: Created) -> CreatedSession:
        """From the use case's result."""
        return cls(
            session_id=strawberry.ID(created.session_id),
            gm_token=created.gm_token,
            spectator_token=created.spectator_token,
            version=created.version,
        )
