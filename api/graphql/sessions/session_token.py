"""GraphQL: SessionToken, a role token the GM issued."""

from __future__ import annotations

import strawberry

from api.sessions.requests import IssueToken
from api.sessions.tokens import token_facts


@strawberry.type(
    description="A player's, a spectator's or a renewed GM token for one session (a secret)."
)
class SessionToken:
    token: str
    token_id: str
    expires_at: str = strawberry.field(description="RFC 3339, UTC.")
    role: str
    member: str | None

    @classmethod
    def from_domain(cls, token: str, request: IssueToken) -> SessionToken:
        """The token, its id and expiry, and what it grants."""
        return cls(token=token, **token_facts(token), role=request.role, member=request.member)
