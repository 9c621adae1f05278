"""GraphQL: pages of a viewer's campaign events and of its ticks (DowntimePassed)."""

from __future__ import annotations

from typing import Any

import strawberry

from api.graphql.campaigns.campaign_event import CampaignEvent
from api.graphql.scalars import Long


@strawberry.type(description="Redacted events after a version, and the campaign's version.")
class CampaignEventPage:
    version: int
    events: list[CampaignEvent]

    @classmethod
    def from_domain(cls, page: dict[str, Any]) -> CampaignEventPage:
        """From the use case's (already redacted) page."""
        return cls(
            version=page["version"], events=[CampaignEvent.from_domain(e) for e in page["events"]]
        )


@strawberry.type(
    description="Redacted DowntimePassed events after a version, oldest first; `nextAfter` "
    "is the cursor of the next page (null once read through)."
)
class CampaignTickPage:
    version: int
    ticks: list[CampaignEvent]
    next_after: Long | None

    @classmethod
    def from_domain(cls, page: dict[str, Any]) -> CampaignTickPage:
        """From the use case's (already redacted) page."""
        after = page["next_after"]
        return cls(
            version=page["version"],
            ticks=[CampaignEvent.from_domain(e) for e in page["ticks"]],
            next_after=None if after is None else Long(after),
        )
