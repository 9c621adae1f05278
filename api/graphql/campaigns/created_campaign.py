"""GraphQL: CreatedCampaign, a new campaign with its GM and spectator tokens."""

from __future__ import annotations

import strawberry

from api.campaigns.usecases import Created


@strawberry.type(description="A new campaign: its id, version and first role tokens (secrets).")
class CreatedCampaign:
    campaign_id: strawberry.ID
    gm_token: str
    spectator_token: str
    version: int

    @classmethod
    def from_domain(cls, created: Created) -> CreatedCampaign:
        """From the use case's result."""
        return cls(
            campaign_id=strawberry.ID(created.campaign_id),
            gm_token=created.gm_token,
            spectator_token=created.spectator_token,
            version=created.version,
        )
