"""GraphQL: CampaignToken, a role token the GM issued."""

from __future__ import annotations

import strawberry

from api.campaigns.requests import IssueCampaignToken


@strawberry.type(description="A player (bound to one runner) or spectator token (a secret).")
class CampaignToken:
    token: str
    role: str
    runner: str | None

    @classmethod
    def from_domain(cls, token: str, request: IssueCampaignToken) -> CampaignToken:
        """The token and what it grants."""
        return cls(token=token, role=request.role, runner=request.runner)
