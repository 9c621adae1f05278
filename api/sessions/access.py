"""Reaching the running sessions from a request or a WebSocket: tenant, key, clock, token.

The caller's tenant (from its API key, see api/middleware/api_keys.py) picks the session
service, so nothing here can reach another tenant's sessions.
"""

from __future__ import annotations

import re
import time

from starlette.requests import HTTPConnection

from api.clients import client_of
from api.sessions.requests import SESSION_ID
from api.sessions.revocation import checked
from api.sessions.tokens import RoleToken, SessionNotFound, authenticate
from infra.logs import annotate
from services.errors import DomainError
from services.labyrinth import MazeState
from services.store.sessions import SessionService


class NotReady(DomainError):
    """The event store is not open yet (the app is starting or stopping)."""

    code = "not_ready"
    http_status = 503


def tenant_of(conn: HTTPConnection) -> str:
    """The tenant the caller acts for."""
    return client_of(conn).tenant


def sessions_of(conn: HTTPConnection) -> SessionService[MazeState]:
    """The session service of the caller's tenant."""
    runtime = getattr(conn.app.state, "runtime", None)
    if runtime is None:
        raise NotReady("the event store is not reachable")
    service: SessionService[MazeState] = runtime.sessions_for(tenant_of(conn))
    return service


_SESSION_ID = re.compile(SESSION_ID)


def secret_of(conn: HTTPConnection) -> bytes:
    """The service key the role tokens are signed with."""
    key: bytes = conn.app.state.settings.secret_key_bytes
    return key


def now() -> int:
    """Seconds since the epoch: the tokens' clock."""
    return int(time.time())


def bearer(conn: HTTPConnection) -> str | None:
    """The bearer token of the Authorization header, if any."""
    header = conn.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None


async def grant_of(conn: HTTPConnection, session_id: str, token: str | None) -> RoleToken:
    """The verified, unrevoked grant of `token` for `session_id` in the caller's tenant
    (401 `invalid_token` / `token_revoked`, 403, 404)."""
    annotate(session_id=session_id)  # the request's log lines name the session, even if refused
    if not _SESSION_ID.fullmatch(session_id):
        # Session ids are ours (uuid hex): this also keeps a campaign's token (subject
        # `campaign:<id>`) from ever passing for a session's.
        raise SessionNotFound("no such session")
    grant = authenticate(secret_of(conn), token, session_id, now(), tenant_of(conn))
    return await checked(conn, sessions_of(conn).stream(session_id), grant)


def scoped_command_id(grant: RoleToken, command_id: str | None) -> str | None:
    """A client's idempotency key, namespaced by who sent it.

    Event ids derive from command ids, and a repeated id returns what the first command
    recorded: unscoped, one viewer could pre-empt another's key (or the clock's own
    `downtime-<k>`) and have their command taken for a duplicate.
    """
    if command_id is None:
        return None
    return f"client:{grant.role}:{grant.member or ''}:{command_id}"
