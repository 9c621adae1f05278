"""GraphQL: the tables' live feeds — a viewer's session or campaign events, over
graphql-transport-ws: the catch-up after version `after`, then each event as it is
recorded, in order.

The token comes as the `token` argument or, when that is omitted, as `token` in the
connection_init payload (`{"type": "connection_init", "payload": {"token": "..."}}`).
A browser, which cannot set `X-API-Key` on a WebSocket, puts its key there too
(`"api_key": "..."`); the subscription then acts for that key's tenant. Each event is
its `<Type>Event` (the interface `SessionEvent` or `CampaignEvent`: `version`, `type`);
a Problem ends the feed (a refused token, one revoked while open).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from typing import Any

import strawberry

from api.campaigns.usecases import CAMPAIGNS
from api.clients import authenticate_connection
from api.graphql.context import Info, connection_param
from api.graphql.generate import output_type, union_of
from api.graphql.problem import EXPECTED, Problem, as_problem
from api.graphql.scalars import Long
from api.sessions.usecases import SESSIONS
from api.tables.kind import Kind
from api.tables.stream import follow
from api.tables.tokens import InvalidToken
from api.usecases.run import in_thread
from services.campaign import shown as campaign_shown
from services.labyrinth import shown as session_shown

START = Long(0)  # the beginning of a table: every event
CONNECTION = "the `token` argument, or `token` in the connection_init payload"
# A session's last event: after either, every command is refused (docs/PROTOCOL.md).
FINAL_SESSION_EVENTS = frozenset({"MazeEscaped", "MazeEnded"})


def _payload(name: str, interface: Any, models: Any) -> Any:
    """Every event type of a table (reached through its interface), or a Problem."""
    output_type(interface)
    return union_of(name, (*(output_type(m) for m in models.values()), Problem))


SessionEventPayload: Any = _payload(
    "SessionEventPayload", session_shown.SessionEvent, session_shown.EVENT_MODELS
)
CampaignEventPayload: Any = _payload(
    "CampaignEventPayload", campaign_shown.CampaignEvent, campaign_shown.EVENT_MODELS
)


async def _events(
    info: Info,
    kind: Kind[Any, Any],
    table_id: str,
    token: str | None,
    after: int,
    typed: Callable[[dict[str, Any]], Any],
    final: frozenset[str] = frozenset(),
) -> AsyncGenerator[Any, None]:
    conn = info.context["request"]
    if after < 0:
        yield Problem(code="invalid_request", message="after must be ≥ 0", field="after")
        return
    try:
        authenticate_connection(conn, connection_param(info, "api_key"))
        given = token or connection_param(info, "token")
        grant = kind.grant(conn, table_id, given, CONNECTION)
        await in_thread(conn, kind.live, conn, grant)
    except EXPECTED as exc:
        yield as_problem(exc)
        return
    try:
        async for shown in follow(conn, kind, grant, after, final):
            yield typed(shown)
    except InvalidToken as exc:  # revoked while open: say so, then complete
        yield as_problem(exc)


@strawberry.type
class TableSubscription:
    @strawberry.subscription(
        description="The viewer's redacted events after version `after`, then live, in order."
    )
    async def session_events(
        self, info: Info, id: strawberry.ID, token: str | None = None, after: Long = START
    ) -> AsyncGenerator[SessionEventPayload, None]:
        shown = session_shown.shown_event
        async for event in _events(info, SESSIONS, str(id), token, after, shown,
                                   FINAL_SESSION_EVENTS):  # fmt: skip
            yield event

    @strawberry.subscription(
        description="The viewer's campaign events after version `after` (the catch-up; 0: "
        "every event), then each one as it is recorded, in order — as `sessionEvents`. To "
        "resume, subscribe again with the last version received."
    )
    async def campaign_events(
        self, info: Info, id: strawberry.ID, token: str | None = None, after: Long = START
    ) -> AsyncGenerator[CampaignEventPayload, None]:
        async for event in _events(info, CAMPAIGNS, str(id), token, after,
                                   campaign_shown.shown_event):  # fmt: skip
            yield event
