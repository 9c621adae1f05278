"""GraphQL: `campaignEvents`, a viewer's campaign events live, over graphql-transport-ws.

As for sessions, the token is the `token` argument or `token` in the connection_init
payload, and a browser puts its API key there too (`api_key`).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any, cast

import strawberry

from api.campaigns.access import grant_of
from api.campaigns.stream import follow
from api.clients import authenticate_connection
from api.graphql.campaigns.campaign_event import CampaignEvent
from api.graphql.campaigns.payloads import CampaignEventPayload
from api.graphql.context import Info
from api.graphql.problem import Problem
from api.graphql.scalars import Long
from api.graphql.sessions.errors import EXPECTED, as_problem

FIRST = Long(1)  # the campaign's first event


def _init_param(info: Info, name: str) -> str | None:
    context = cast(dict[str, Any], info.context)
    params = context.get("connection_params")
    value = params.get(name) if isinstance(params, dict) else None
    return value if isinstance(value, str) else None


@strawberry.type
class CampaignSubscription:
    @strawberry.subscription(
        description="The viewer's redacted campaign events from version `fromVersion` on "
        "(the catch-up), then each one as it is recorded, in order. To resume, subscribe "
        "again with the last version received plus one."
    )
    async def campaign_events(
        self,
        info: Info,
        campaign_id: strawberry.ID,
        token: str | None = None,
        from_version: Long = FIRST,
    ) -> AsyncGenerator[CampaignEventPayload, None]:
        conn = info.context["request"]
        if from_version < 0:
            yield Problem(
                code="invalid_request", message="fromVersion must be ≥ 0", field="fromVersion"
            )
            return
        try:
            authenticate_connection(conn, _init_param(info, "api_key"))
            grant = grant_of(conn, str(campaign_id), token or _init_param(info, "token"))
        except EXPECTED as exc:
            yield as_problem(exc)
            return
        async for shown in follow(conn, grant, max(0, from_version - 1)):
            yield CampaignEvent.from_domain(shown)
