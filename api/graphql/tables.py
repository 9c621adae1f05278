"""GraphQL: join codes and the tenant's tables, as REST's `/join`, `/…/join-codes`,
`GET /sessions` and `GET /campaigns` (api/tables.py)."""

from __future__ import annotations

from typing import Annotated, Any, TypeAlias

import strawberry
from starlette.concurrency import run_in_threadpool

from api import tables
from api.campaigns.access import campaigns_of
from api.campaigns.access import grant_of as campaign_grant
from api.graphql.context import Info
from api.graphql.problem import EXPECTED, Problem, as_problem
from api.graphql.scalars import Long
from api.sessions.access import grant_of as session_grant
from api.sessions.access import secret_of, sessions_of, tenant_of
from api.sessions.revocation import revocations_of
from services.errors import DomainError


@strawberry.type(description="A join code for one seat (show it to the player once).")
class JoinCode:
    code: str
    member: str
    expires_at: str = strawberry.field(description="When the unused code dies (RFC 3339).")
    token_ttl_seconds: Long


@strawberry.type(description="A seat joined: the player token (a secret) and its table.")
class JoinedTable:
    kind: str
    session_id: strawberry.ID | None
    campaign_id: strawberry.ID | None
    token: str
    token_id: str
    expires_at: str
    role: str
    member: str


@strawberry.type(description="A session of the tenant, as a GM screen lists it.")
class ListedSession:
    session_id: strawberry.ID
    created_at: str
    labyrinth: str | None
    phase: str
    version: Long


@strawberry.type(description="A page of the tenant's sessions, newest first.")
class SessionList:
    sessions: list[ListedSession]
    next_cursor: str | None


@strawberry.type(description="A campaign of the tenant, as a GM screen lists it.")
class ListedCampaign:
    campaign_id: strawberry.ID
    created_at: str
    name: str
    downtime: Long
    ended: bool
    version: Long


@strawberry.type(description="A page of the tenant's campaigns, newest first.")
class CampaignList:
    campaigns: list[ListedCampaign]
    next_cursor: str | None


JoinCodePayload: TypeAlias = Annotated[JoinCode | Problem, strawberry.union("JoinCodePayload")]
JoinPayload: TypeAlias = Annotated[JoinedTable | Problem, strawberry.union("JoinPayload")]
SessionListPayload: TypeAlias = Annotated[
    SessionList | Problem, strawberry.union("SessionListPayload")
]
CampaignListPayload: TypeAlias = Annotated[
    CampaignList | Problem, strawberry.union("CampaignListPayload")
]


def _code_request(member: str, code_ttl: Long | None, token_ttl: Long | None) -> Any:
    fields: dict[str, Any] = {"member": member}
    if code_ttl is not None:
        fields["code_ttl_seconds"] = code_ttl
    if token_ttl is not None:
        fields["token_ttl_seconds"] = token_ttl
    return tables.CreateJoinCode.model_validate(fields)


@strawberry.type
class TablesMutation:
    @strawberry.mutation(description="GM: a single-use join code for a party member's seat.")
    async def create_session_join_code(
        self,
        info: Info,
        id: strawberry.ID,
        token: str,
        member: str,
        code_ttl_seconds: Long | None = None,
        token_ttl_seconds: Long | None = None,
    ) -> JoinCodePayload:
        conn = info.context["request"]
        try:
            grant = await session_grant(conn, str(id), token)
            request = _code_request(member, code_ttl_seconds, token_ttl_seconds)
            made = await run_in_threadpool(
                tables.session_code, tables.tables_of(conn), sessions_of(conn), grant, request
            )
        except EXPECTED as exc:
            return as_problem(exc)
        return JoinCode(**made)

    @strawberry.mutation(description="GM: a single-use join code for one campaign runner.")
    async def create_campaign_join_code(
        self,
        info: Info,
        id: strawberry.ID,
        token: str,
        runner: str,
        code_ttl_seconds: Long | None = None,
        token_ttl_seconds: Long | None = None,
    ) -> JoinCodePayload:
        conn = info.context["request"]
        try:
            grant = await campaign_grant(conn, str(id), token)
            request = _code_request(runner, code_ttl_seconds, token_ttl_seconds)
            made = await run_in_threadpool(
                tables.campaign_code, tables.tables_of(conn), campaigns_of(conn), grant, request
            )
        except EXPECTED as exc:
            return as_problem(exc)
        return JoinCode(**made)

    @strawberry.mutation(description="A player: exchange a join code for a player token (once).")
    async def join_table(self, info: Info, code: str) -> JoinPayload:
        conn = info.context["request"]
        try:
            request = tables.JoinTable.model_validate({"code": code})
            joined = await run_in_threadpool(
                tables.join,
                tables.tables_of(conn),
                revocations_of(conn, tenant_of(conn)),
                request.code,
                secret_of(conn),
                tables.stream_namer(sessions_of(conn), campaigns_of(conn)),
            )
        except EXPECTED as exc:
            return as_problem(exc)
        return JoinedTable(
            **{"session_id": None, "campaign_id": None, **joined}  # one of the two is set
        )


@strawberry.type
class TablesQuery:
    @strawberry.field(description="The tenant's sessions, newest first (a secret key's).")
    async def sessions(
        self, info: Info, limit: int = 20, cursor: str | None = None
    ) -> SessionListPayload:
        conn = info.context["request"]
        try:
            listed = await run_in_threadpool(
                tables.list_sessions,
                tables.tables_of(conn),
                sessions_of(conn),
                _limit(limit),
                cursor,
            )
        except EXPECTED as exc:
            return as_problem(exc)
        return SessionList(
            sessions=[ListedSession(**item) for item in listed["sessions"]],
            next_cursor=listed["next_cursor"],
        )

    @strawberry.field(description="The tenant's campaigns, newest first (a secret key's).")
    async def campaigns(
        self, info: Info, limit: int = 20, cursor: str | None = None
    ) -> CampaignListPayload:
        conn = info.context["request"]
        try:
            listed = await run_in_threadpool(
                tables.list_campaigns,
                tables.tables_of(conn),
                campaigns_of(conn),
                _limit(limit),
                cursor,
            )
        except EXPECTED as exc:
            return as_problem(exc)
        return CampaignList(
            campaigns=[ListedCampaign(**item) for item in listed["campaigns"]],
            next_cursor=listed["next_cursor"],
        )


def _limit(limit: int) -> int:
    if not 1 <= limit <= tables.MAX_LIST:
        raise DomainError(f"limit is 1 to {tables.MAX_LIST}", code="invalid_request")
    return limit


def _tables(conn: Any) -> Any:
    return conn.app.state.runtime.tables_for(tenant_of(conn))
