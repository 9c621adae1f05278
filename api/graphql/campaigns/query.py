"""GraphQL: campaign queries — a viewer's state, event history and tick history."""

from __future__ import annotations

import strawberry
from starlette.concurrency import run_in_threadpool

from api.campaigns import usecases
from api.campaigns.access import ARGUMENT, campaigns_of, grant_of
from api.campaigns.usecases import MAX_PAGE
from api.graphql.campaigns.payloads import (
    CampaignEventsPayload,
    CampaignTicksPayload,
    CampaignViewPayload,
)
from api.graphql.context import Info
from api.graphql.problem import EXPECTED, Problem, as_problem
from api.graphql.scalars import Long
from services.campaign.shown import shown_look, shown_page, shown_ticks

START = Long(0)  # the beginning of a campaign: every event


def _bad_page(after: int, limit: int) -> Problem | None:
    if after < 0 or not 1 <= limit <= MAX_PAGE:
        return Problem(code="invalid_request", message=f"after ≥ 0 and 1 ≤ limit ≤ {MAX_PAGE}")
    return None


@strawberry.type
class CampaignQuery:
    @strawberry.field(description="The campaign as the token's viewer sees it.")
    async def campaign(self, info: Info, id: strawberry.ID, token: str) -> CampaignViewPayload:
        conn = info.context["request"]
        try:
            grant = await grant_of(conn, str(id), token, ARGUMENT)
            looked = await run_in_threadpool(usecases.look, campaigns_of(conn), grant)
        except EXPECTED as exc:
            return as_problem(exc)
        return shown_look(looked)

    @strawberry.field(description="The viewer's redacted campaign events after version `after`.")
    async def campaign_events(
        self, info: Info, id: strawberry.ID, token: str, after: Long = START, limit: int = 100
    ) -> CampaignEventsPayload:
        conn = info.context["request"]
        refused = _bad_page(after, limit)
        if refused is not None:
            return refused
        try:
            grant = await grant_of(conn, str(id), token, ARGUMENT)
            page = await run_in_threadpool(
                usecases.history, campaigns_of(conn), grant, after, limit
            )
        except EXPECTED as exc:
            return as_problem(exc)
        return shown_page(page)

    @strawberry.field(
        description="The viewer's downtimes (DowntimePassed) after version `after`, oldest first."
    )
    async def campaign_ticks(
        self, info: Info, id: strawberry.ID, token: str, after: Long = START, limit: int = 50
    ) -> CampaignTicksPayload:
        conn = info.context["request"]
        refused = _bad_page(after, limit)
        if refused is not None:
            return refused
        try:
            grant = await grant_of(conn, str(id), token, ARGUMENT)
            page = await run_in_threadpool(usecases.ticks, campaigns_of(conn), grant, after, limit)
        except EXPECTED as exc:
            return as_problem(exc)
        return shown_ticks(page)
