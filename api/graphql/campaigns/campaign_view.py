"""GraphQL: CampaignView, a campaign's state as one viewer sees it."""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.scalars import JSON


@strawberry.type(description="A campaign's state for the token's viewer, and its version.")
class CampaignView:
    campaign_id: strawberry.ID
    role: str
    runner: str | None
    version: int
    view: JSON

    @classmethod
    def from_domain(cls, looked: dict[str, Any]) -> CampaignView:
        """From the use case's (already redacted) result."""
        return cls(
            campaign_id=strawberry.ID(looked["campaign_id"]),
            role=looked["role"],
            runner=looked["runner"],
            version=looked["version"],
            view=looked["view"],
        )
