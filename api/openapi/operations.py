"""Every REST operation the app serves under /v1, declared once for the OpenAPI document."""

from __future__ import annotations

from api.openapi.campaigns import campaign_operations
from api.openapi.rules import BODY_ERRORS, rules_operations
from api.openapi.spec import Operation, Param, obj
from api.openapi.tokens import (
    FIRST_TOKENS,
    ISSUED_TOKEN,
    JOIN_CODE,
    REVOCATION,
    REVOKE_NOTE,
    table_operations,
)
from api.openapi.usecases import operations
from api.sessions.commands import CommandBody
from api.sessions.requests import SESSION_ID, CreateSession, IssueToken, RevokeTokens
from api.sessions.usecases import MAX_PAGE
from api.simulations import MAX_GAMES, TUNING_BUDGET, SimulationRequest, TuningRequest
from api.tables import CreateJoinCode
from api.usecases.rows import ROWS

# Session calls add a refused role (403), an unknown session (404) and a conflict (409).
SESSION_ERRORS = (401, 403, 404, 409, 413, 422, 429, 503)

SESSION_ID_PARAM = Param(
    "session_id", "path", {"type": "string", "pattern": SESSION_ID}, "The session's id."
)
VIEW_PARAM = Param(
    "view", "query", {"type": "string", "enum": ["gm"]}, "`gm`: the GM's view (GM token only)."
)
AFTER_PARAM = Param(
    "after", "query", {"type": "integer", "minimum": 0, "maximum": 2**62}, "Events after this."
)
LIMIT_PARAM = Param(
    "limit", "query", {"type": "integer", "minimum": 1, "maximum": MAX_PAGE}, "Page size."
)


def session_operations() -> list[Operation]:
    """Labyrinth sessions: every call but creation carries a session role token."""
    one = "/v1/sessions/{session_id}"
    view = obj(
        "session_id:string", "role:string", "member:string?", "version:integer", "view:object"
    )
    sent = obj("version:integer", "duplicate:boolean", "events:array", "view:object")
    created = obj("session_id:string", *FIRST_TOKENS, "version:integer")
    token = obj(*ISSUED_TOKEN, "role:string", "member:string?")
    events = obj("version:integer", "events:array")
    errors = SESSION_ERRORS
    return [
        Operation("post", "/v1/sessions", "createSession", "Start a labyrinth session",
                  "sessions", CreateSession, created, status=201, errors=(*BODY_ERRORS, 503),
                  description="The GM and spectator tokens are shown once."),
        Operation("get", one, "getSession", "This viewer's view of a session", "sessions",
                  None, view, errors=errors, session_token=True,
                  params=(SESSION_ID_PARAM, VIEW_PARAM)),
        Operation("post", f"{one}/tokens", "issueToken",
                  "Issue a player or spectator token, or renew the GM's", "sessions",
                  IssueToken, token, status=201, errors=errors, session_token=True,
                  params=(SESSION_ID_PARAM,)),
        Operation("post", f"{one}/join-codes", "createSessionJoinCode",
                  "A single-use join code for a party member's seat", "sessions",
                  CreateJoinCode, JOIN_CODE, status=201, errors=errors, session_token=True,
                  params=(SESSION_ID_PARAM,)),
        Operation("post", f"{one}/revocations", "revokeSessionTokens",
                  "Revoke a token, a member's, a role's or every token", "sessions",
                  RevokeTokens, REVOCATION, errors=errors, session_token=True,
                  params=(SESSION_ID_PARAM,), description=REVOKE_NOTE),
        Operation("post", f"{one}/commands", "sendCommand", "Send one command", "sessions",
                  CommandBody, sent, errors=errors, session_token=True,
                  params=(SESSION_ID_PARAM,)),
        Operation("get", f"{one}/events", "getEvents", "This viewer's redacted events",
                  "sessions", None, events, errors=errors, session_token=True,
                  params=(SESSION_ID_PARAM, AFTER_PARAM, LIMIT_PARAM)),
    ]  # fmt: skip


JOB_ID_PARAM = Param("job_id", "path", {"type": "string", "maxLength": 64}, "The job's id.")
# A simulation of another tenant is a 404, like an unknown one; the chart may not be ready.
JOB_ERRORS = (401, 404, 429, 503)


def simulation_operations() -> list[Operation]:
    """Simulation and tuning jobs (tenant-scoped)."""
    one = "/v1/simulations/{job_id}"
    started = obj("job_id:string", "status:string", "seed:string", "games:integer")
    shown = obj(
        "job_id:string",
        "status:string",
        "progress:number",
        "games:integer",
        "games_done:integer",
        "total_games:integer",
        "total_games_done:integer",
        "error:string?",
        "statistics:object?",
        "chart:object",
    )
    tuning = "/v1/tunings/{job_id}"
    tuning_started = obj(
        "job_id:string",
        "status:string",
        "seed:string",
        "configurations:integer",
        "games_per_configuration:integer",
        "games:integer",
    )
    tuned = obj(
        "job_id:string",
        "status:string",
        "progress:number",
        "games:integer",
        "games_done:integer",
        "error:string?",
        "target:string",
        "value:number",
        "games_per_configuration:integer",
        "configurations:integer",
        "seed:string",
        "candidates:array?",
    )
    svg: dict[str, object] = {"type": "string", "description": "An SVG document."}
    return [
        Operation("post", "/v1/simulations", "startSimulation", "Start a simulation job",
                  "simulations", SimulationRequest, started, status=202,
                  errors=(*BODY_ERRORS, 503),
                  description=f"At most {MAX_GAMES} games (`games_limit_exceeded`); the "
                  "chart's DC sweep runs as small jobs of its own. A tenant has at most "
                  "`DAEDALUS_MAX_JOBS_PER_TENANT` (4) simulations queued or running at once "
                  "(429 `too_many_jobs`, with Retry-After)."),
        Operation("get", one, "getSimulation", "A simulation's status, progress and statistics",
                  "simulations", None, shown, errors=JOB_ERRORS, params=(JOB_ID_PARAM,)),
        Operation("delete", one, "cancelSimulation", "Cancel a simulation", "simulations",
                  None, shown, errors=JOB_ERRORS, params=(JOB_ID_PARAM,)),
        Operation("get", f"{one}/chart.svg", "getSimulationChart",
                  "Escape rate against DC, as SVG", "simulations", None, svg,
                  errors=(*JOB_ERRORS, 409), params=(JOB_ID_PARAM,),
                  media_type="image/svg+xml",
                  description="409 `chart_not_ready` until the DC sweep has succeeded."),
        Operation("post", "/v1/tunings", "startTuning",
                  "Start a tuning: find configurations near a target difficulty",
                  "simulations", TuningRequest, tuning_started, status=202,
                  errors=(*BODY_ERRORS, 503),
                  description=f"A worker job like a simulation: at most {TUNING_BUDGET} games "
                  "at the default 500 turns, in game-turns (`games_limit_exceeded`); it "
                  "counts towards the tenant's `DAEDALUS_MAX_JOBS_PER_TENANT` jobs at once "
                  "(429 `too_many_jobs`)."),
        Operation("get", tuning, "getTuning",
                  "A tuning's status, progress and, when done, the nearest configurations",
                  "simulations", None, tuned, errors=JOB_ERRORS, params=(JOB_ID_PARAM,),
                  description="`candidates` (best first) once `status` is `succeeded`; "
                  "404 `tuning_not_found` for an unknown id or another tenant's."),
        Operation("delete", tuning, "cancelTuning", "Cancel a tuning", "simulations",
                  None, tuned, errors=JOB_ERRORS, params=(JOB_ID_PARAM,)),
    ]  # fmt: skip


def all_operations() -> list[Operation]:
    """Every REST operation, in a stable order."""
    return [
        *operations(ROWS),
        *rules_operations(),
        *session_operations(),
        *campaign_operations(),
        *simulation_operations(),
        *table_operations(),
    ]
