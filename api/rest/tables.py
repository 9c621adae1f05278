"""REST: join codes (`/sessions/{id}/join-codes`, `/campaigns/{id}/join-codes`, `/join`)
and the tenant's tables (`GET /sessions`, `GET /campaigns`), as api/tables.py describes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from api import tables
from api.bodies import read_model
from api.campaigns.access import campaigns_of
from api.campaigns.access import grant_of as campaign_grant
from api.rest.guard import guarded
from api.rest.params import int_param
from api.sessions.access import bearer, secret_of, sessions_of, tenant_of
from api.sessions.access import grant_of as session_grant
from api.sessions.revocation import revocations_of
from api.tables import stream_namer

_guarded = guarded("Role token refused")
NO_STORE = {"Cache-Control": "no-store"}


async def _join_code(
    request: Request, grant: Any, make: Callable[..., Any], service: Any
) -> Response:
    body = await read_model(request, tables.CreateJoinCode)
    made = await run_in_threadpool(make, tables.tables_of(request), service, grant, body)
    return JSONResponse(made, status_code=201, headers=NO_STORE)


async def session_join_code(request: Request) -> Response:
    """POST /v1/sessions/{id}/join-codes (GM): a join code for one party member's seat."""
    grant = await session_grant(request, request.path_params["session_id"], bearer(request))
    return await _join_code(request, grant, tables.session_code, sessions_of(request))


async def campaign_join_code(request: Request) -> Response:
    """POST /v1/campaigns/{id}/join-codes (GM): a join code for one runner."""
    grant = await campaign_grant(request, request.path_params["campaign_id"], bearer(request))
    return await _join_code(request, grant, tables.campaign_code, campaigns_of(request))


async def join(request: Request) -> Response:
    """POST /v1/join: exchange a join code for a player token (once)."""
    body = await read_model(request, tables.JoinTable)
    joined = await run_in_threadpool(
        tables.join,
        tables.tables_of(request),
        revocations_of(request, tenant_of(request)),
        body.code,
        secret_of(request),
        stream_namer(sessions_of(request), campaigns_of(request)),
    )
    return JSONResponse(joined, status_code=201, headers=NO_STORE)


def _page(request: Request) -> tuple[int, str | None]:
    return int_param(request, "limit", 20, 1, tables.MAX_LIST), request.query_params.get("cursor")


async def list_sessions(request: Request) -> Response:
    """GET /v1/sessions?limit&cursor: the tenant's sessions, newest first (secret key)."""
    limit, cursor = _page(request)
    listed = await run_in_threadpool(
        tables.list_sessions, tables.tables_of(request), sessions_of(request), limit, cursor
    )
    return JSONResponse(listed)


async def list_campaigns(request: Request) -> Response:
    """GET /v1/campaigns?limit&cursor: the tenant's campaigns, newest first (secret key)."""
    limit, cursor = _page(request)
    listed = await run_in_threadpool(
        tables.list_campaigns, tables.tables_of(request), campaigns_of(request), limit, cursor
    )
    return JSONResponse(listed)


routes: list[BaseRoute] = [
    Route("/sessions", list_sessions, methods=["GET"]),
    Route("/campaigns", list_campaigns, methods=["GET"]),
    Route("/sessions/{session_id:str}/join-codes", _guarded(session_join_code), methods=["POST"]),
    Route(
        "/campaigns/{campaign_id:str}/join-codes", _guarded(campaign_join_code), methods=["POST"]
    ),
    Route("/join", join, methods=["POST"]),
]
