"""Joining a table and listing a tenant's tables (sessions and campaigns alike).

The GM makes a short join code for one seat (a session's party member, a campaign's
runner); a player exchanges it, once, for a player token bound to that seat. A code is
8 characters of Crockford's base32 (40 bits, shown `K7QF-M2XP`; case, dashes and the
look-alikes O/I/L are forgiven), expires unused (15 minutes by default), and dies with a
revocation of its seat made after it. A secret key (or, keyless in development, anyone)
lists the tenant's tables, newest first, in pages.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Any

from pydantic import Field

from api.campaigns.usecases import Campaigns
from api.models import Frozen
from api.tables.revocation import now_ms
from api.tables.tokens import (
    DEFAULT_TTL_SECONDS,
    Forbidden,
    RoleToken,
    TokenTtl,
    issue_token,
    rfc3339,
    token_facts,
)
from services.errors import DomainError
from services.labyrinth import MazeState
from services.markers import LongInt
from services.store.revocations import Revocations
from services.store.sessions import SessionService
from services.store.tables import Tables

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base32: no I, L, O, U
CODE_LENGTH = 8
_LOOKALIKES = str.maketrans({"O": "0", "I": "1", "L": "1"})
_CODE = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")
MAX_LIST = 100


class JoinCodeNotFound(DomainError):
    """No live join code: unknown, already used, expired, or its seat was revoked."""

    code = "join_code_not_found"
    http_status = 404


class CreateJoinCode(Frozen):
    """GM: a join code for one seat (`member`: a party member or a campaign runner)."""

    member: str = Field(min_length=1, max_length=64)
    code_ttl_seconds: LongInt = Field(default=15 * 60, ge=60, le=7 * 24 * 3600)
    token_ttl_seconds: TokenTtl = DEFAULT_TTL_SECONDS


class JoinTable(Frozen):
    """A player: exchange a join code for a player token."""

    code: str = Field(min_length=1, max_length=32)


def new_code() -> str:
    """A fresh random join code (8 characters, 40 bits)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def shown(code: str) -> str:
    """The code as a person reads it: `K7QF-M2XP`."""
    return f"{code[:4]}-{code[4:]}"


def normalized(text: str) -> str | None:
    """The code a person typed, or None if it cannot be one."""
    code = re.sub(r"[\s-]", "", text).upper().translate(_LOOKALIKES)
    return code if _CODE.fullmatch(code) else None


def make_code(
    tables: Tables,
    kind: str,
    table_id: str,
    grant: RoleToken,
    request: CreateJoinCode,
    seat_exists: Callable[[str], bool],
) -> dict[str, Any]:
    """GM: store a join code for a seat of this table (blocking: Redis)."""
    if grant.role != "gm":
        raise Forbidden("only the GM makes join codes")
    if not seat_exists(request.member):
        raise DomainError(f"no seat {request.member!r} at this table", code="unknown_member")
    made = now_ms()
    stored = {
        "kind": kind,
        "id": table_id,
        "subject": grant.session_id,
        "member": request.member,
        "made_ms": made,
        "ttl": request.token_ttl_seconds,
    }
    code = new_code()
    while not tables.put_code(code, stored, request.code_ttl_seconds):
        code = new_code()  # 2^40 codes: a collision with a live one is all but impossible
    return {
        "code": shown(code),
        "member": request.member,
        "expires_at": rfc3339((made / 1000) + request.code_ttl_seconds),
        "token_ttl_seconds": request.token_ttl_seconds,
    }


def join(
    tables: Tables, revocations: Revocations, text: str, secret: bytes, stream_of: StreamOf
) -> dict[str, Any]:
    """A player token for the seat a join code names; the code is used up (blocking)."""
    code = normalized(text)
    stored = tables.take_code(code) if code is not None else None
    if stored is None:
        raise JoinCodeNotFound("no such join code (it may have been used or have expired)")
    member = stored["member"]
    scopes = ["all", "role:player", f"member:{member}"]
    stream = stream_of(stored["kind"], stored["id"])
    if any(c is not None and c >= stored["made_ms"] for c in revocations.cutoffs(stream, scopes)):
        raise JoinCodeNotFound("no such join code (its seat was revoked after it was made)")
    issued = now_ms()
    token = issue_token(
        secret,
        stored["subject"],
        "player",
        issued // 1000,
        member,
        int(stored["ttl"]),
        tenant=tables.keys.tenant,
        now_ms=issued,
    )
    id_field = "session_id" if stored["kind"] == "session" else "campaign_id"
    return {
        "kind": stored["kind"],
        id_field: stored["id"],
        "token": token,
        **token_facts(token),
        "role": "player",
        "member": member,
    }


StreamOf = Callable[[str, str], str]


def page_of(
    tables: Tables, kind: str, limit: int, cursor: str | None
) -> tuple[list[tuple[str, int]], str | None]:
    """A page of the tenant's tables of `kind`: (id, created ms) newest first, next cursor."""
    if cursor is not None and not re.fullmatch(r"\d{1,16}:[A-Za-z0-9_-]{1,64}", cursor):
        raise DomainError("the cursor is not one this service gave", code="invalid_cursor")
    found = tables.page(kind, max(1, min(limit, MAX_LIST)), cursor)
    return found.ids, found.cursor


def stream_namer(sessions: SessionService[MazeState], campaigns: Campaigns) -> StreamOf:
    """The stream of a table, by kind and id."""

    def stream_of(kind: str, table_id: str) -> str:
        return (sessions if kind == "session" else campaigns).stream(table_id)

    return stream_of


def list_sessions(
    tables: Tables, sessions: SessionService[MazeState], limit: int, cursor: str | None
) -> dict[str, Any]:
    """A page of the tenant's sessions, newest first, each with its phase (blocking)."""
    ids, nxt = page_of(tables, "sessions", limit, cursor)
    items = []
    for session_id, created in ids:
        loaded = sessions.load(session_id)
        maze = loaded.state.definition
        items.append(
            {
                "session_id": session_id,
                "created_at": rfc3339(created / 1000),
                "labyrinth": None if maze is None else maze.name,
                "phase": loaded.state.phase,
                "version": loaded.version,
            }
        )
    return {"sessions": items, "next_cursor": nxt}


def list_campaigns(
    tables: Tables, campaigns: Campaigns, limit: int, cursor: str | None
) -> dict[str, Any]:
    """A page of the tenant's campaigns, newest first (blocking)."""
    ids, nxt = page_of(tables, "campaigns", limit, cursor)
    items = []
    for campaign_id, created in ids:
        loaded = campaigns.load(campaign_id)
        items.append(
            {
                "campaign_id": campaign_id,
                "created_at": rfc3339(created / 1000),
                "name": loaded.state.name,
                "downtime": loaded.state.downtime,
                "ended": loaded.state.ended,
                "version": loaded.version,
            }
        )
    return {"campaigns": items, "next_cursor": nxt}
