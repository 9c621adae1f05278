"""GraphQL: campaign queries — a viewer's state, event history and tick history."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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


async def _paged(
    info: Info, id: str, token: str, after: int, limit: int, use_case: Callable[..., Any]
) -> Any:
    """A page of `use_case` for the token's viewer, or the Problem refusing it."""
    if after < 0 or not 1 <= limit <= MAX_PAGE:
        return Problem(code="invalid_request", message=f"after ≥ 0 and 1 ≤ limit ≤ {MAX_PAGE}")
    conn = info.context["request"]
    try:
        grant = await grant_of(conn, id, token, ARGUMENT)
        return await run_in_threadpool(use_case, campaigns_of(conn), grant, after, limit)
    except EXPECTED as exc:
        return as_problem(exc)


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
        page = await _paged(info, str(id), token, after, limit, usecases.history)
        return page if isinstance(page, Problem) else shown_page(page)

    @strawberry.field(
        description="The viewer's downtimes (DowntimePassed) after version `after`, oldest first."
    )
    async def campaign_ticks(
        self, info: Info, id: strawberry.ID, token: str, after: Long = START, limit: int = 50
    ) -> CampaignTicksPayload:
        page = await _paged(info, str(id), token, after, limit, usecases.ticks)
        return page if isinstance(page, Problem) else shown_ticks(page)
