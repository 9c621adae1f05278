"""GraphQL: the campaign payload unions — each success type or the Problem that refused it.

Views, events and command results are generated from services/campaign/shown.py: an
event is the interface `CampaignEvent` (`version`, `type`), one `<Type>Event` per event
type.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeAlias

import strawberry

from api.graphql.campaigns.campaign_token import CampaignToken
from api.graphql.campaigns.created_campaign import CreatedCampaign
from api.graphql.generate import output_type, union_of
from api.graphql.problem import Problem
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
