"""GraphQL: SessionToken, a role token the GM issued."""

from __future__ import annotations

import strawberry

from api.sessions.requests import IssueToken


@strawberry.type(description="A player or spectator token for one session (a secret).")
class SessionToken:
    token: str
    role: str
    member: str | None

    @classmethod
    def from_domain(cls, token: str, request: IssueToken) -> SessionToken:
        """The token and what it grants."""
        return cls(token=token, role=request.role, member=request.member)
