"""REST: labyrinth sessions — create, issue role tokens, send commands, read views and events.

Every call but creation carries a session role token (`Authorization: Bearer ...`);
every answer is rendered for that token's viewer.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from api.bodies import read_model
from api.rest.guard import guarded
from api.rest.params import int_param
from api.sessions import usecases
from api.sessions.access import bearer, grant_of, now, secret_of, sessions_of
from api.sessions.commands import CommandBody
from api.sessions.requests import CreateSession, IssueToken, RevokeTokens
from api.sessions.tokens import first_tokens, token_facts
from api.sessions.usecases import MAX_PAGE, revoke_in_session

_guarded = guarded("Session token refused")


def _session_id(request: Request) -> str:
    session_id: str = request.path_params["session_id"]
    return session_id


async def create_session(request: Request) -> Response:
    """POST /v1/sessions: start a maze; the GM and spectator tokens come back once."""
    body = await read_model(request, CreateSession)
    created = await run_in_threadpool(
        usecases.create,
        sessions_of(request),
        body,
        secret_of(request),
        now(),
        request.app.state.settings.seeded_sessions_on,
    )
    return JSONResponse(
        {
            "session_id": created.session_id,
            **first_tokens(created.gm_token, created.spectator_token),
            "version": created.version,
        },
        status_code=201,
        headers={"Cache-Control": "no-store"},
    )


async def issue_token(request: Request) -> Response:
    """POST /v1/sessions/{id}/tokens (GM): a player's, a spectator's or a renewed GM token."""
    grant = await grant_of(request, _session_id(request), bearer(request))
    body = await read_model(request, IssueToken)
    token = await run_in_threadpool(
        usecases.issue, sessions_of(request), grant, body, secret_of(request), now()
    )
    return JSONResponse(
        {"token": token, **token_facts(token), "role": body.role, "member": body.member},
        status_code=201,
        headers={"Cache-Control": "no-store"},
    )


async def revoke_tokens(request: Request) -> Response:
    """POST /v1/sessions/{id}/revocations (GM): revoke a token, a member's, a role's, all."""
    session_id = _session_id(request)
    grant = await grant_of(request, session_id, bearer(request))
    body = await read_model(request, RevokeTokens)
    result = await run_in_threadpool(
        revoke_in_session, sessions_of(request), grant, body, secret_of(request)
    )
    return JSONResponse(result, headers={"Cache-Control": "no-store"})


async def send_command(request: Request) -> Response:
    """POST /v1/sessions/{id}/commands: one command; its events and the view, redacted."""
    grant = await grant_of(request, _session_id(request), bearer(request))
    body = await read_model(request, CommandBody)
    result = await run_in_threadpool(usecases.send, sessions_of(request), grant, body.root)
    return JSONResponse(result)


async def get_session(request: Request) -> Response:
    """GET /v1/sessions/{id}: this viewer's view and the version (`?view=gm` for the GM)."""
    grant = await grant_of(request, _session_id(request), bearer(request))
    as_gm = request.query_params.get("view") == "gm"
    result = await run_in_threadpool(usecases.look, sessions_of(request), grant, as_gm)
    return JSONResponse(result)


async def get_events(request: Request) -> Response:
    """GET /v1/sessions/{id}/events?after=N&limit=M: this viewer's redacted events."""
    grant = await grant_of(request, _session_id(request), bearer(request))
    after = int_param(request, "after", 0, 0, 2**62)
    limit = int_param(request, "limit", 100, 1, MAX_PAGE)
    result = await run_in_threadpool(usecases.history, sessions_of(request), grant, after, limit)
    return JSONResponse(result)


_ID = "{session_id:str}"

routes: list[BaseRoute] = [
    Route("/sessions", _guarded(create_session), methods=["POST"]),
    Route(f"/sessions/{_ID}", _guarded(get_session), methods=["GET"]),
    Route(f"/sessions/{_ID}/tokens", _guarded(issue_token), methods=["POST"]),
    Route(f"/sessions/{_ID}/commands", _guarded(send_command), methods=["POST"]),
    Route(f"/sessions/{_ID}/events", _guarded(get_events), methods=["GET"]),
    Route(f"/sessions/{_ID}/revocations", _guarded(revoke_tokens), methods=["POST"]),
]
