"""GraphQL: CreatedCampaign, a new campaign with its GM and spectator tokens."""

from __future__ import annotations

import strawberry

from api.campaigns.usecases import Created
from api.sessions.tokens import first_tokens


@strawberry.type(description="A new campaign: its id, version and first role tokens (secrets).")
class CreatedCampaign:
    campaign_id: strawberry.ID
    gm_token: str
    gm_token_id: str
    spectator_token: str
    spectator_token_id: str
    expires_at: str = strawberry.field(description="When both tokens expire (RFC 3339, UTC).")
    version: int

    @classmethod
    def from_domain(cls, created: Created) -> CreatedCampaign:
        """From the use case's result."""
        return cls(
            campaign_id=strawberry.ID(created.campaign_id),
            **first_tokens(created.gm_token, created.spectator_token),
            version=created.version,
        )
