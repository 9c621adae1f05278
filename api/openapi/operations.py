"""Every REST operation the app serves under /v1, declared once for the OpenAPI document."""

from __future__ import annotations

from api.openapi.campaigns import campaign_operations
from api.openapi.spec import BODY_ERRORS, Operation, Param, with_token
from api.openapi.tables import CreatedSession, JoinCode, Revocation, SessionToken
from api.openapi.tokens import REVOKE_NOTE, table_operations
from api.openapi.usecases import operations
from api.sessions.commands import CommandBody
from api.sessions.requests import SESSION_ID, CreateSession, IssueToken, RevokeTokens
from api.sessions.usecases import MAX_PAGE
from api.tables import CreateJoinCode
from api.usecases.rows import ROWS
from services.labyrinth.shown import CommandResult, SessionEventPage, SessionView

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
    ids = (SESSION_ID_PARAM,)
    op = with_token("/v1/sessions/{session_id}", "sessions", SESSION_ERRORS, ids)
    return [
        Operation("post", "/v1/sessions", "createSession", "Start a labyrinth session",
                  "sessions", CreateSession, {}, result=CreatedSession, status=201,
                  errors=(*BODY_ERRORS, 503),
                  description="The GM and spectator tokens are shown once."),
        op("get", "", "getSession", "This viewer's view of a session", None, SessionView,
           params=(SESSION_ID_PARAM, VIEW_PARAM)),
        op("post", "/tokens", "issueToken",
           "Issue a player or spectator token, or renew the GM's", IssueToken, SessionToken,
           status=201),
        op("post", "/join-codes", "createSessionJoinCode",
           "A single-use join code for a party member's seat", CreateJoinCode, JoinCode,
           status=201),
        op("post", "/revocations", "revokeSessionTokens",
           "Revoke a token, a member's, a role's or every token", RevokeTokens, Revocation,
           description=REVOKE_NOTE),
        op("post", "/commands", "sendCommand", "Send one command", CommandBody,
           CommandResult),
        op("get", "/events", "getEvents", "This viewer's redacted events", None,
           SessionEventPage, params=(SESSION_ID_PARAM, AFTER_PARAM, LIMIT_PARAM)),
    ]  # fmt: skip


# The chart is an SVG document, not a row's JSON (api/rest/simulations.py).
CHART = Operation(
    "get", "/v1/simulations/{id}/chart.svg", "getSimulationChart",
    "Escape rate against DC, as SVG", "simulations", None,
    {"type": "string", "description": "An SVG document."}, errors=(401, 404, 409, 429, 503),
    params=(Param("id", "path", {"type": "string", "maxLength": 64}, "The simulation's id."),),
    media_type="image/svg+xml",
    description="409 `chart_not_ready` until the DC sweep has succeeded.",
)  # fmt: skip


def all_operations() -> list[Operation]:
    """Every REST operation, in a stable order."""
    return [
        *operations(ROWS),
        *session_operations(),
        *campaign_operations(),
        CHART,
        *table_operations(),
    ]
