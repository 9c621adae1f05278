"""GraphQL: CampaignToken, a role token the GM issued."""

from __future__ import annotations

import strawberry

from api.campaigns.requests import IssueCampaignToken
from api.sessions.tokens import token_facts


@strawberry.type(description="A player (bound to one runner) or spectator token (a secret).")
class CampaignToken:
    token: str
    token_id: str
    expires_at: str = strawberry.field(description="RFC 3339, UTC.")
    role: str
    runner: str | None

    @classmethod
    def from_domain(cls, token: str, request: IssueCampaignToken) -> CampaignToken:
        """The token, its id and expiry, and what it grants."""
        return cls(token=token, **token_facts(token), role=request.role, runner=request.runner)
