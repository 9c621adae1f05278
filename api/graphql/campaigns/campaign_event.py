"""GraphQL: CampaignEvent, one campaign event as one viewer may see it."""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.scalars import JSON


@strawberry.type(description="One redacted event: its version in the campaign, type and fields.")
class CampaignEvent:
    version: int
    type: str
    event: JSON

    @classmethod
    def from_domain(cls, shown: dict[str, Any]) -> CampaignEvent:
        """From a redacted event (`{"version", "type", ...fields}`)."""
        return cls(version=shown["version"], type=shown["type"], event=JSON(shown))
