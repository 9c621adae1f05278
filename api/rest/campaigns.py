"""REST: campaigns — create, role tokens, runners, activities, runs, GM adjustments,
cadence, advancing by hand, and the tick and event histories.

Every call but creation carries a campaign role token (`Authorization: Bearer ...`);
every answer is rendered for that token's viewer.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from api.bodies import read_model
from api.campaigns import usecases
from api.campaigns.access import campaigns_of, clock_now, clock_of, grant_of
from api.campaigns.requests import (
    CAMPAIGN_ID,
    RUNNER_ID,
    AddRunner,
    AdjustmentBody,
    Advance,
    ChooseActivity,
    CreateCampaign,
    EndCampaign,
    EndRun,
    InvalidCharacter,
    IssueCampaignToken,
    RemoveRunner,
    RollDice,
    SetCadence,
    StartRun,
)
from api.campaigns.usecases import MAX_PAGE, authorize
from api.problems import InvalidRequest, problem
from api.rest.guard import guarded
from api.rest.params import int_param
from api.sessions.access import bearer, now, secret_of
from api.sessions.requests import RevokeTokens
from api.sessions.tokens import RoleToken, first_tokens, token_facts

NO_STORE = {"Cache-Control": "no-store"}


_guarded = guarded("Campaign token refused")


def _path(request: Request, name: str, pattern: str) -> str:
    value: str = request.path_params[name]
    if not re.fullmatch(pattern, value):
        raise InvalidRequest(
            f"path parameter {name!r} must match {pattern}",
            [{"loc": ["path", name], "msg": "bad id", "type": "string_pattern_mismatch"}],
        )
    return value


async def _grant(request: Request) -> RoleToken:
    return await grant_of(request, request.path_params["campaign_id"], bearer(request))


async def _send(
    request: Request,
    grant: RoleToken,
    build: Callable[[Any], Any],
    body: BaseModel | None = None,
    *,
    actor: str | None = None,
    what: str,
    reschedule: bool = False,
) -> Response:
    """Run one command built from the current state; the result is the sender's view."""
    result = await run_in_threadpool(
        functools.partial(
            usecases.send,
            campaigns_of(request),
            grant,
            build,
            actor=actor,
            what=what,
            seen_version=getattr(body, "seen_version", None),
            command_id=getattr(body, "command_id", None),
            clock=clock_of(request) if reschedule else None,
        )
    )
    return JSONResponse(result)


async def create_campaign(request: Request) -> Response:
    """POST /v1/campaigns: start a campaign; the GM and spectator tokens come back once."""
    body = await read_model(request, CreateCampaign)
    created = await run_in_threadpool(
        usecases.create,
        campaigns_of(request),
        clock_of(request),
        body,
        secret_of(request),
        now(),
        clock_now(),
    )
    return JSONResponse(
        {
            "campaign_id": created.campaign_id,
            **first_tokens(created.gm_token, created.spectator_token),
            "version": created.version,
        },
        status_code=201,
        headers=NO_STORE,
    )


async def get_campaign(request: Request) -> Response:
    """GET /v1/campaigns/{id}: this viewer's view of the campaign and its version."""
    grant = await _grant(request)
    return JSONResponse(await run_in_threadpool(usecases.look, campaigns_of(request), grant))


async def issue_token(request: Request) -> Response:
    """POST /v1/campaigns/{id}/tokens (GM): a player token bound to a runner, or a spectator's."""
    grant = await _grant(request)
    body = await read_model(request, IssueCampaignToken)
    token = await run_in_threadpool(
        usecases.issue, campaigns_of(request), grant, body, secret_of(request), now()
    )
    return JSONResponse(
        {"token": token, **token_facts(token), "role": body.role, "runner": body.runner},
        status_code=201,
        headers=NO_STORE,
    )


async def revoke_tokens(request: Request) -> Response:
    """POST /v1/campaigns/{id}/revocations (GM): revoke a token, a runner's, a role's, all."""
    grant = await _grant(request)
    body = await read_model(request, RevokeTokens)
    result = await run_in_threadpool(
        usecases.revoke_in_campaign, campaigns_of(request), grant, body, secret_of(request)
    )
    return JSONResponse(result, headers=NO_STORE)


async def add_runner(request: Request) -> Response:
    """POST /v1/campaigns/{id}/runners (GM): a runner joins with a character sheet."""
    grant = await _grant(request)
    authorize(grant, None, "add runners")
    body = await read_model(request, AddRunner)
    try:
        return await _send(request, grant, lambda _: body.to_domain(), body, what="add runners")
    except InvalidCharacter as exc:
        # As /v1/maze/characters/validate lists them: every rule the sheet breaks.
        return problem(
            exc.http_status,
            exc.code,
            exc.message,
            title="Character sheet refused",
            issues=[i.model_dump() for i in exc.issues],
        )


async def remove_runner(request: Request) -> Response:
    """DELETE /v1/campaigns/{id}/runners/{runner_id} (GM): a runner leaves the campaign."""
    grant = await _grant(request)
    runner = _path(request, "runner_id", RUNNER_ID)
    command = RemoveRunner(runner=runner).to_domain()
    return await _send(request, grant, lambda _: command, what="remove runners")


async def roll_dice(request: Request) -> Response:
    """POST /v1/campaigns/{id}/rolls: a roll in the table's log (a player for their runner)."""
    grant = await _grant(request)
    body = await read_model(request, RollDice)
    return await _send(
        request, grant, lambda _: body.to_domain(), body, actor=body.runner, what="roll as the GM"
    )


async def choose_activity(request: Request) -> Response:
    """POST /v1/campaigns/{id}/choices: a runner's activity (a player for their own only)."""
    grant = await _grant(request)
    body = await read_model(request, ChooseActivity)
    return await _send(
        request,
        grant,
        lambda state: body.to_domain(state.downtime),
        body,
        actor=body.runner,
        what="choose for another runner",
    )


async def start_run(request: Request) -> Response:
    """POST /v1/campaigns/{id}/runs (GM): runners leave for the maze."""
    grant = await _grant(request)
    authorize(grant, None, "start runs")
    body = await read_model(request, StartRun)
    command = body.to_domain()
    return await _send(request, grant, lambda _: command, body, what="start runs")


async def end_run(request: Request) -> Response:
    """POST /v1/campaigns/{id}/runs/{run_id}/end (GM): a run is over, with its results."""
    grant = await _grant(request)
    run = _path(request, "run_id", CAMPAIGN_ID)
    authorize(grant, None, "end runs")
    body = await read_model(request, EndRun)
    return await _send(request, grant, lambda _: body.to_domain(run), body, what="end runs")


async def adjust(request: Request) -> Response:
    """POST /v1/campaigns/{id}/adjustments (GM): supplies, an effect or an injury."""
    grant = await _grant(request)
    authorize(grant, None, "adjust the campaign")
    body = (await read_model(request, AdjustmentBody)).root
    return await _send(request, grant, lambda _: body.to_domain(), body, what="adjust the campaign")


async def set_cadence(request: Request) -> Response:
    """PUT /v1/campaigns/{id}/cadence (GM): when downtimes pass from now on."""
    grant = await _grant(request)
    authorize(grant, None, "set the cadence")
    body = await read_model(request, SetCadence)
    at = clock_now()
    return await _send(
        request, grant, lambda _: body.to_domain(at), body, what="set the cadence", reschedule=True
    )


async def advance(request: Request) -> Response:
    """POST /v1/campaigns/{id}/advance (GM): pass downtimes by hand, through `through`."""
    grant = await _grant(request)
    body = await read_model(request, Advance)
    result = await run_in_threadpool(
        usecases.advance, campaigns_of(request), clock_of(request), grant, body, clock_now()
    )
    return JSONResponse(result)


async def end_campaign(request: Request) -> Response:
    """POST /v1/campaigns/{id}/end (GM): the campaign is over; it leaves the schedule."""
    grant = await _grant(request)
    authorize(grant, None, "end the campaign")
    body = await read_model(request, EndCampaign)
    return await _send(
        request, grant, lambda _: body.to_domain(), body, what="end the campaign", reschedule=True
    )


async def _page(request: Request, use_case: Callable[..., Any], default_limit: int) -> Response:
    """A page of `use_case` after `?after=N` (default 0), at most `?limit=M` long."""
    grant = await _grant(request)
    after = int_param(request, "after", 0, 0, 2**62)
    limit = int_param(request, "limit", default_limit, 1, MAX_PAGE)
    page = await run_in_threadpool(use_case, campaigns_of(request), grant, after, limit)
    return JSONResponse(page)


async def get_ticks(request: Request) -> Response:
    """GET /v1/campaigns/{id}/ticks?after=N&limit=M: this viewer's downtimes, oldest first."""
    return await _page(request, usecases.ticks, 50)


async def get_events(request: Request) -> Response:
    """GET /v1/campaigns/{id}/events?after=N&limit=M: this viewer's redacted events."""
    return await _page(request, usecases.history, 100)


_ONE = "/campaigns/{campaign_id:str}"

routes: list[BaseRoute] = [
    Route("/campaigns", _guarded(create_campaign), methods=["POST"]),
    Route(_ONE, _guarded(get_campaign), methods=["GET"]),
    Route(f"{_ONE}/tokens", _guarded(issue_token), methods=["POST"]),
    Route(f"{_ONE}/runners", _guarded(add_runner), methods=["POST"]),
    Route(f"{_ONE}/runners/{{runner_id:str}}", _guarded(remove_runner), methods=["DELETE"]),
    Route(f"{_ONE}/choices", _guarded(choose_activity), methods=["POST"]),
    Route(f"{_ONE}/runs", _guarded(start_run), methods=["POST"]),
    Route(f"{_ONE}/runs/{{run_id:str}}/end", _guarded(end_run), methods=["POST"]),
    Route(f"{_ONE}/adjustments", _guarded(adjust), methods=["POST"]),
    Route(f"{_ONE}/cadence", _guarded(set_cadence), methods=["PUT"]),
    Route(f"{_ONE}/advance", _guarded(advance), methods=["POST"]),
    Route(f"{_ONE}/end", _guarded(end_campaign), methods=["POST"]),
    Route(f"{_ONE}/ticks", _guarded(get_ticks), methods=["GET"]),
    Route(f"{_ONE}/events", _guarded(get_events), methods=["GET"]),
    Route(f"{_ONE}/revocations", _guarded(revoke_tokens), methods=["POST"]),
    Route(f"{_ONE}/rolls", _guarded(roll_dice), methods=["POST"]),
]
