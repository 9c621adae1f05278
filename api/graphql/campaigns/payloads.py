"""GraphQL: the campaign payload unions — each success type or the Problem that refused it."""

from __future__ import annotations

from typing import Annotated, TypeAlias

import strawberry

from api.graphql.campaigns.campaign_event import CampaignEvent
from api.graphql.campaigns.campaign_token import CampaignToken
from api.graphql.campaigns.campaign_view import CampaignView
from api.graphql.campaigns.created_campaign import CreatedCampaign
from api.graphql.campaigns.pages import CampaignEventPage, CampaignTickPage
from api.graphql.problem import Problem

CreateCampaignPayload: TypeAlias = Annotated[
    CreatedCampaign | Problem, strawberry.union("CreateCampaignPayload")
]
CampaignTokenPayload: TypeAlias = Annotated[
    CampaignToken | Problem, strawberry.union("CampaignTokenPayload")
]
CampaignViewPayload: TypeAlias = Annotated[
    CampaignView | Problem, strawberry.union("CampaignViewPayload")
]
CampaignEventsPayload: TypeAlias = Annotated[
    CampaignEventPage | Problem, strawberry.union("CampaignEventsPayload")
]
CampaignTicksPayload: TypeAlias = Annotated[
    CampaignTickPage | Problem, strawberry.union("CampaignTicksPayload")
]
CampaignEventPayload: TypeAlias = Annotated[
    CampaignEvent | Problem, strawberry.union("CampaignEventPayload")
]
