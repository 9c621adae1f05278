"""Reaching the running sessions from a request or a WebSocket: runtime, key, clock, token."""

from __future__ import annotations

import time

from starlette.requests import HTTPConnection

from api.sessions.tokens import RoleToken, authenticate
from services.errors import DomainError
from services.labyrinth import MazeState
from services.store.sessions import SessionService


class NotReady(DomainError):
    """The event store is not open yet (the app is starting or stopping)."""

    code = "not_ready"
    http_status = 503


def sessions_of(conn: HTTPConnection) -> SessionService[MazeState]:
    """The session service of the running app."""
    runtime = getattr(conn.app.state, "runtime", None)
    if runtime is None:
        raise NotReady("the event store is not reachable")
    service: SessionService[MazeState] = runtime.sessions
    return service


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


def grant_of(conn: HTTPConnection, session_id: str, token: str | None) -> RoleToken:
    """The verified grant of `token` for `session_id` (401/403 otherwise)."""
    return authenticate(secret_of(conn), token, session_id, now())
