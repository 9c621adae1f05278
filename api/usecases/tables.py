"""The two kinds of table (sessions, campaigns) and the use cases they share: join codes
for a seat, joining by code, and listing the tenant's tables (api/tables/join.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import strawberry
from pydantic import BaseModel, Field
from strawberry.types.unset import UNSET

from api.campaigns.requests import CAMPAIGN_ID
from api.campaigns.usecases import CAMPAIGNS
from api.graphql.scalars import Long
from api.models import Frozen
from api.openapi.tables import CampaignList, JoinCode, JoinedTable, Revocation, SessionList
from api.sessions.requests import SESSION_ID, RevokeTokens
from api.sessions.usecases import SESSIONS
from api.tables import join as tables
from api.tables.kind import MAX_PAGE, PAGE, PAGE_PRICE, Kind
from api.usecases.markers import LongInt
from api.usecases.table import (
    Access,
    AsyncService,
    Call,
    Redacted,
    Service,
    Table,
    UseCase,
    no_store,
)

SESSION = Table("session_id", SESSION_ID, SESSIONS, "Session token refused")
CAMPAIGN = Table("campaign_id", CAMPAIGN_ID, CAMPAIGNS, "Campaign token refused")
# The GraphQL arguments of a table command's version check and retry key.
SeenVersion = Annotated[
    Long | None, strawberry.argument(description="Refuse (version_conflict) if it moved on.")
]
CommandId = Annotated[
    str | None, strawberry.argument(description="Idempotency key (8..128 characters).")
]
# A role token refused (401/403), an unknown table (404), a conflict (409).
TABLE_ERRORS = (401, 403, 404, 409, 413, 422, 429, 503)


def _service(kind: Kind[Any, Any], call: Call) -> Any:
    return kind.service_of(call.store(), call.tenant)


def alooking(kind: Kind[Any, Any], typed: Callable[[dict[str, Any]], BaseModel]) -> AsyncService:
    """`looking`'s service in the event loop, on the tenant's asyncio store."""

    async def look(request: Any, call: Call) -> Redacted:
        looked = await kind.alook(_service(kind, call), call.async_store(), call.granted())
        return Redacted(looked, typed)

    return look


def aissuing(kind: Kind[Any, Any], result: type[BaseModel]) -> AsyncService:
    """`issuing`'s service in the event loop, on the tenant's asyncio store."""

    async def issue(request: Any, call: Call) -> BaseModel:
        service, secret = _service(kind, call), call.settings.secret_key_bytes
        issued = await kind.aissue(service, call.async_store(), call.granted(), request, secret)
        return result.model_validate(issued)

    return issue


def issuing(kind: Kind[Any, Any], result: type[BaseModel]) -> Service:
    """The service of a table's token issue (`request.role`, its seat, `ttl_seconds`)."""

    def issue(request: Any, call: Call) -> BaseModel:
        secret = call.settings.secret_key_bytes
        issued = kind.issue(_service(kind, call), call.granted(), request, secret)
        return result.model_validate(issued)

    return issue


# What a revocation row's description says, for sessions and campaigns alike.
REVOKE_NOTE = (
    "Name at most one of `token_id`, `member` and `role`; none revokes every token. Tokens "
    "of the scope issued until now are refused from then on (401 `token_revoked`), open "
    "subscriptions included; a revocation that covers the GM's own tokens answers a fresh "
    "GM token."
)


def revoking(kind: Kind[Any, Any]) -> Service:
    """The service of a table's revocations."""

    def revoke(request: RevokeTokens, call: Call) -> Revocation:
        secret = call.settings.secret_key_bytes
        done = kind.revoke(_service(kind, call), call.granted(), request, secret)
        return Revocation.model_validate(done)

    return revoke


def looking(kind: Kind[Any, Any], typed: Callable[[dict[str, Any]], BaseModel]) -> Service:
    """The service of a table's view for the token's viewer."""

    def look(request: Any, call: Call) -> Redacted:
        return Redacted(kind.look(_service(kind, call), call.granted()), typed)

    return look


class EventsAfter(Frozen):
    """A page of a viewer's events after a version."""

    after: LongInt = Field(default=0, ge=0, le=2**62, description="Events after this version.")
    limit: int = Field(default=100, ge=1, le=MAX_PAGE, description="Page size.")


def page_price(request: EventsAfter) -> int:
    """Tokens a page of events costs, from its `limit`: 1 (the door's) for the first 100
    events, and a catch-up page's price for each further 100 (a subscription's catch-up
    costs the same per page), so a 500-event page costs 9: its reading, decoding and
    redaction are paid for before they run."""
    return 1 + PAGE_PRICE * ((request.limit - 1) // PAGE)


def apaging(kind: Kind[Any, Any], typed: Callable[[dict[str, Any]], BaseModel]) -> AsyncService:
    """`paging`'s service in the event loop, on the tenant's asyncio store."""

    async def history(request: EventsAfter, call: Call) -> Redacted:
        page = await kind.ahistory(_service(kind, call), call.async_store(), call.granted(),
                                   request.after, request.limit)  # fmt: skip
        return Redacted(page, typed)

    return history


def paging(kind: Kind[Any, Any], typed: Callable[[dict[str, Any]], BaseModel]) -> Service:
    """The service of a page of a table's events for the token's viewer."""

    def history(request: EventsAfter, call: Call) -> Redacted:
        page = kind.history(_service(kind, call), call.granted(), request.after, request.limit)
        return Redacted(page, typed)

    return history


def coding(kind: Kind[Any, Any]) -> Service:
    """The service of a single-use join code for one seat of the grant's table (GM)."""

    def code(request: tables.CreateJoinCode, call: Call) -> JoinCode:
        grant, service = call.granted(), _service(kind, call)
        table_id = kind.table_id(grant)

        def seat_exists(seat: str) -> bool:
            return bool(kind.has_seat(service.load(table_id).state, seat))

        made = tables.make_code(call.store().tables_for(call.tenant), kind.noun, table_id,
                                grant, request, seat_exists)  # fmt: skip
        return JoinCode.model_validate(made)

    return code


def join(request: tables.JoinTable, call: Call) -> JoinedTable:
    """A player: exchange a join code for a player token (once)."""
    store = call.store()
    joined = tables.join(
        store.tables_for(call.tenant),
        store.revocations_for(call.tenant),
        request.code,
        call.settings.secret_key_bytes,
        tables.stream_namer(store.sessions_for(call.tenant), store.campaigns_for(call.tenant)),
    )
    return JoinedTable.model_validate(joined)


class ListTables(Frozen):
    """A page of the tenant's tables, newest first."""

    limit: int = Field(default=20, ge=1, le=tables.MAX_LIST, description="Page size.")
    cursor: str | None = Field(
        default=None, max_length=90, description="The previous page's `next_cursor`."
    )


def listing(kind: Kind[Any, Any], lister: Callable[..., Any], result: type[BaseModel]) -> Service:
    """The service of a page of the tenant's tables of one kind, newest first."""

    def listed(request: ListTables, call: Call) -> BaseModel:
        page = lister(call.store().tables_for(call.tenant), _service(kind, call), request.limit,
                      request.cursor)  # fmt: skip
        return result.model_validate(page)

    return listed


def _runner_as_member(given: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in given.items() if v is not None and k != "runner"}
    return {**out, "member": given["runner"]}


_RUNNER_CODE_ARGS = (
    ("runner", str, UNSET),
    ("code_ttl_seconds", Long | None, None),
    ("token_ttl_seconds", Long | None, None),
)
LISTED = (401, 403, 422, 429)
ROWS: tuple[UseCase, ...] = (
    UseCase("listSessions", "GET", "/sessions", "query", "sessions", ListTables, SessionList,
            listing(SESSIONS, tables.list_sessions, SessionList),
            "The tenant's sessions, newest first", "sessions", errors=LISTED, cpu=True),
    UseCase("listCampaigns", "GET", "/campaigns", "query", "campaigns", ListTables,
            CampaignList, listing(CAMPAIGNS, tables.list_campaigns, CampaignList),
            "The tenant's campaigns, newest first", "campaigns", errors=LISTED, cpu=True),
    UseCase("createSessionJoinCode", "POST", "/sessions/{session_id}/join-codes", "mutation",
            "create_session_join_code", tables.CreateJoinCode, JoinCode, coding(SESSIONS),
            "A single-use join code for a party member's seat", "sessions", table=SESSION,
            status=201, errors=TABLE_ERRORS, cpu=True, headers=no_store),
    UseCase("createCampaignJoinCode", "POST", "/campaigns/{campaign_id}/join-codes",
            "mutation", "create_campaign_join_code", tables.CreateJoinCode, JoinCode,
            coding(CAMPAIGNS), "A single-use join code for one runner", "campaigns",
            table=CAMPAIGN, status=201, errors=TABLE_ERRORS, cpu=True, headers=no_store,
            graphql_args=_RUNNER_CODE_ARGS, from_graphql=_runner_as_member),
    UseCase("joinTable", "POST", "/join", "mutation", "join_table", tables.JoinTable,
            JoinedTable, join, "Exchange a join code for a player token", "sessions",
            status=201, errors=(401, 403, 404, 413, 422, 429), cpu=True, headers=no_store,
            access=Access.PUBLISHABLE,
            description="Single use: of racing exchanges exactly one succeeds; an unknown, "
            "used, expired or revoked code is 404 `join_code_not_found`."),
)  # fmt: skip
