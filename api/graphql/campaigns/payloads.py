"""GraphQL: the campaign payload unions — each success type or the Problem that refused it.

Views, events and command results are generated from services/campaign/shown.py: an
event is the interface `CampaignEvent` (`version`, `type`), one `<Type>Event` per event
type.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeAlias

import strawberry

from api.campaigns.requests import IssueCampaignToken
from api.campaigns.usecases import Created
from api.graphql.generate import output_type, union_of
from api.graphql.problem import Problem
from api.graphql.sessions.payloads import TableRoleEnum
from api.sessions.tokens import first_tokens, token_facts
from services.campaign.shown import (
    EVENT_MODELS,
    CampaignCommandResult,
    CampaignEvent,
    CampaignEventPage,
    CampaignTickPage,
    CampaignView,
)

CampaignEventType: Any = output_type(CampaignEvent)
_EVENTS: Any = tuple(output_type(m) for m in EVENT_MODELS.values())


@strawberry.type(description="A player (bound to one runner) or spectator token (a secret).")
class CampaignToken:
    token: str
    token_id: str
    expires_at: str = strawberry.field(description="RFC 3339, UTC.")
    role: TableRoleEnum
    runner: str | None

    @classmethod
    def from_domain(cls, token: str, request: IssueCampaignToken) -> CampaignToken:
        """The token, its id and expiry, and what it grants."""
        return cls(token=token, **token_facts(token), role=request.role, runner=request.runner)


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


CreateCampaignPayload: TypeAlias = Annotated[
    CreatedCampaign | Problem, strawberry.union("CreateCampaignPayload")
]
CampaignTokenPayload: TypeAlias = Annotated[
    CampaignToken | Problem, strawberry.union("CampaignTokenPayload")
]
CampaignViewPayload: TypeAlias = Annotated[  # type: ignore[valid-type]
    output_type(CampaignView) | Problem, strawberry.union("CampaignViewPayload")
]
CampaignCommandPayload: TypeAlias = Annotated[  # type: ignore[valid-type]
    output_type(CampaignCommandResult) | Problem, strawberry.union("CampaignCommandPayload")
]
CampaignEventsPayload: TypeAlias = Annotated[  # type: ignore[valid-type]
    output_type(CampaignEventPage) | Problem, strawberry.union("CampaignEventsPayload")
]
CampaignTicksPayload: TypeAlias = Annotated[  # type: ignore[valid-type]
    output_type(CampaignTickPage) | Problem, strawberry.union("CampaignTicksPayload")
]
# One event live, or the Problem that ended the feed (select `... on CampaignEvent`).
CampaignEventPayload: Any = union_of("CampaignEventPayload", (*_EVENTS, Problem))
