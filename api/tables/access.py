"""Reaching a table from a request or a WebSocket: the caller's tenant, the signing key,
the tokens' clock, the bearer token, and command ids scoped by who sent them (with the
fingerprint of the command each was sent with).

The caller's tenant (from its API key, see api/middleware/api_keys.py) picks the services,
so nothing here can reach another tenant's tables.
"""

from __future__ import annotations

import hashlib
import json
import time

from pydantic import BaseModel
from starlette.requests import HTTPConnection

from api.clients import client_of
from api.tables.tokens import RoleToken
from services.errors import DomainError


class NotReady(DomainError):
    """The event store is not open yet (the app is starting or stopping)."""

    code = "not_ready"
    http_status = 503


def tenant_of(conn: HTTPConnection) -> str:
    """The tenant the caller acts for."""
    return client_of(conn).tenant


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


def scoped_command_id(grant: RoleToken, command_id: str | None) -> str | None:
    """A client's idempotency key, namespaced by who sent it.

    Event ids derive from command ids, and a repeated id returns what the first command
    recorded: unscoped, one viewer could pre-empt another's key (or the clock's own
    `downtime-<k>`) and have their command taken for a duplicate.
    """
    if command_id is None:
        return None
    return f"client:{grant.role}:{grant.member or ''}:{command_id}"


def command_fingerprint(request: BaseModel) -> str:
    """Which command a command id was sent with: a short hash of the request, less its
    `command_id`, recorded with its events (SessionService.execute).

    A retry resends the request, so its fingerprint is the first attempt's, whether it
    comes by REST or GraphQL (both validate into this model); another command under the
    same id differs (another model, another field, another `seen_version`) and is
    refused `idempotency_conflict` instead of answered as a duplicate. Fields at their
    default are left out and keys sorted, so a field spelled out at its default and one
    a later release adds with a default leave it as it was: a retry across an upgrade is
    still a retry.
    """
    body = request.model_dump(mode="json", exclude={"command_id"}, exclude_defaults=True)
    text = json.dumps([type(request).__name__, body], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]
