"""GraphQL: `campaignEvents`, a viewer's campaign events live, over graphql-transport-ws.

As for sessions, the token is the `token` argument or `token` in the connection_init
payload, and a browser puts its API key there too (`api_key`).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator

import strawberry

from api.campaigns.access import CONNECTION, grant_of
from api.campaigns.stream import follow
from api.clients import authenticate_connection
from api.graphql.campaigns.payloads import CampaignEventPayload
from api.graphql.context import Info, connection_param
from api.graphql.problem import EXPECTED, Problem, as_problem
from api.graphql.scalars import Long
from api.sessions.tokens import InvalidToken
from services.campaign.shown import shown_event

START = Long(0)  # the beginning of a campaign: every event


@strawberry.type
class CampaignSubscription:
    @strawberry.subscription(
        description="The viewer's redacted campaign events after version `after` (the "
        "catch-up; 0: every event), then each one as it is recorded, in order — as "
        "`sessionEvents`. To resume, subscribe again with the last version received."
    )
    async def campaign_events(
        self,
        info: Info,
        id: strawberry.ID,
        token: str | None = None,
        after: Long = START,
    ) -> AsyncGenerator[CampaignEventPayload, None]:
        conn = info.context["request"]
        if after < 0:
            yield Problem(code="invalid_request", message="after must be ≥ 0", field="after")
            return
        try:
            authenticate_connection(conn, connection_param(info, "api_key"))
            grant = await grant_of(
                conn, str(id), token or connection_param(info, "token"), CONNECTION
            )
        except EXPECTED as exc:
            yield as_problem(exc)
            return
        try:
            async for shown in follow(conn, grant, after):
                yield shown_event(shown)
        except InvalidToken as exc:  # revoked while open: say so, then complete
            yield as_problem(exc)
