"""GraphQL: the Subscription root — a viewer's events live, over graphql-transport-ws.

The token comes as the `token` argument or, when that is omitted, as `token` in the
connection_init payload (`{"type": "connection_init", "payload": {"token": "..."}}`).
A browser, which cannot set `X-API-Key` on a WebSocket, puts its key there too
(`"api_key": "..."`); the subscription then acts for that key's tenant.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator

import strawberry

from api.clients import authenticate_connection
from api.graphql.context import Info, connection_param
from api.graphql.problem import EXPECTED, Problem, as_problem
from api.graphql.scalars import Long
from api.graphql.sessions.payloads import SessionEventPayload
from api.sessions.access import grant_of
from api.sessions.stream import follow
from api.sessions.tokens import InvalidToken
from services.labyrinth.shown import shown_event

START = Long(0)  # the beginning of a session: every event


@strawberry.type
class Subscription:
    @strawberry.subscription(
        description="The viewer's redacted events after version `after`, then live, in order."
    )
    async def session_events(
        self, info: Info, id: strawberry.ID, token: str | None = None, after: Long = START
    ) -> AsyncGenerator[SessionEventPayload, None]:
        conn = info.context["request"]
        if after < 0:
            yield Problem(code="invalid_request", message="after must be ≥ 0", field="after")
            return
        try:
            authenticate_connection(conn, connection_param(info, "api_key"))
            grant = await grant_of(conn, str(id), token or connection_param(info, "token"))
        except EXPECTED as exc:
            yield as_problem(exc)
            return
        try:
            async for shown in follow(conn, grant, after):
                yield shown_event(shown)
        except InvalidToken as exc:  # revoked while open: say so, then complete
            yield as_problem(exc)
