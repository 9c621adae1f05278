"""GraphQL: session queries — a viewer's state and event history."""

from __future__ import annotations

import strawberry
from starlette.concurrency import run_in_threadpool

from api.graphql.context import Info
from api.graphql.problem import EXPECTED, Problem, as_problem
from api.graphql.scalars import Long
from api.graphql.sessions.payloads import SessionEventsPayload, SessionViewPayload
from api.sessions import usecases
from api.sessions.access import grant_of, sessions_of
from api.sessions.usecases import MAX_PAGE
from services.labyrinth.shown import shown_look, shown_page

START = Long(0)  # the beginning of a session: every event


@strawberry.type
class SessionQuery:
    @strawberry.field(description="The session as the token's viewer sees it (asGm: GM only).")
    async def session(
        self, info: Info, id: strawberry.ID, token: str, as_gm: bool = False
    ) -> SessionViewPayload:
        conn = info.context["request"]
        try:
            grant = await grant_of(conn, str(id), token)
            looked = await run_in_threadpool(usecases.look, sessions_of(conn), grant, as_gm)
        except EXPECTED as exc:
            return as_problem(exc)
        return shown_look(looked)

    @strawberry.field(description="The viewer's redacted events after version `after`.")
    async def session_events(
        self, info: Info, id: strawberry.ID, token: str, after: Long = START, limit: int = 100
    ) -> SessionEventsPayload:
        conn = info.context["request"]
        if after < 0 or not 1 <= limit <= MAX_PAGE:
            return Problem(code="invalid_request", message=f"after ≥ 0 and 1 ≤ limit ≤ {MAX_PAGE}")
        try:
            grant = await grant_of(conn, str(id), token)
            page = await run_in_threadpool(usecases.history, sessions_of(conn), grant, after, limit)
        except EXPECTED as exc:
            return as_problem(exc)
        return shown_page(page)
