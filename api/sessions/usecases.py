"""Session use cases on the runtime: blocking (Redis), so callers run them in a thread.

Every output goes through the caller's viewer: the GM sees everything, a player the
table, a spectator the public feed (services/labyrinth/views.py and redact.py).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from api.sessions.access import scoped_command_id
from api.sessions.commands import GmCommand, PlayerCommand, authorize
from api.sessions.requests import CreateSession, IssueToken, RevokeTokens
from api.sessions.revocation import now_ms, revoke
from api.sessions.tokens import Forbidden, RoleToken, issue_token
from services.dice import Rng, SystemRng, seeded_rng
from services.errors import DomainError
from services.labyrinth import (
    GM,
    SPECTATOR,
    MazeState,
    RollInitiative,
    StartMaze,
    Viewer,
    gm_view,
    player_view,
    redact,
    spectator_view,
)
from services.labyrinth.codec import decode_event
from services.labyrinth.errors import NOT_STARTED, UNKNOWN_PLAYER, LabyrinthError
from services.store.errors import WrongExpectedVersion
from services.store.model import RecordedEvent
from services.store.revocations import Revocations
from services.store.sessions import SessionService
from services.store.tables import Tables

MAX_PAGE = 500


@dataclass(frozen=True, slots=True)
class Created:
    """A new session and its first two tokens."""

    session_id: str
    gm_token: str
    spectator_token: str
    version: int


def viewer_of(grant: RoleToken) -> Viewer:
    """The engine's viewer for a token."""
    if grant.role == "gm":
        return GM
    if grant.role == "player":
        return Viewer("player", grant.member)
    return SPECTATOR


def view_for(state: MazeState, viewer: Viewer) -> dict[str, Any]:
    """The state as this viewer may see it."""
    if viewer.role == "gm":
        return gm_view(state)
    if viewer.role == "player" and viewer.player is not None:
        return player_view(state, viewer.player)
    return spectator_view(state)


def redacted(recorded: RecordedEvent, viewer: Viewer) -> dict[str, Any] | None:
    """A stored event as this viewer may see it, with its version in the session."""
    shown = redact(decode_event(recorded.type, recorded.data), viewer)
    return None if shown is None else {"version": recorded.version, **shown}


def feed(events: Sequence[RecordedEvent], viewer: Viewer) -> list[Any]:
    """Stored events as this viewer may see them, in order."""
    return [e for e in (redacted(r, viewer) for r in events) if e is not None]


def create(
    sessions: SessionService[MazeState],
    request: CreateSession,
    secret: bytes,
    now: int,
    seeds_allowed: bool = True,
) -> Created:
    """Start a maze for a party (and roll initiative unless asked not to).

    Without a seed the table draws from the system's entropy, which no viewer sees. A
    caller's seed makes every draw (deck order, slot ids) replayable from it, so anyone
    who knows or guesses it reads the deck: it is refused unless `seeds_allowed`."""
    if request.seed is not None and not seeds_allowed:
        raise SeedNotAllowed(
            "a chosen seed makes the table predictable to its players: seeds are for "
            "development and tests (DAEDALUS_SEEDED_SESSIONS)"
        )
    session_id = uuid.uuid4().hex
    rng: Rng = seeded_rng(request.seed) if request.seed is not None else SystemRng()
    party = tuple(m.to_domain() for m in request.party)
    done = sessions.execute(
        session_id, StartMaze(definition=request.maze(), party=party), rng, seen_version=0
    )
    if request.roll_initiative:
        done = sessions.execute(session_id, RollInitiative(), rng, seen_version=done.version)
    tenant = sessions.store.keys.tenant
    Tables(sessions.store.client, sessions.store.keys).add("sessions", session_id, now_ms())
    ttl = request.token_ttl_seconds
    return Created(
        session_id,
        issue_token(secret, session_id, "gm", now, ttl_seconds=ttl, tenant=tenant),
        issue_token(secret, session_id, "spectator", now, ttl_seconds=ttl, tenant=tenant),
        done.version,
    )


class SeedNotAllowed(DomainError):
    """A session seed where the deployment does not accept one."""

    code = "seed_not_allowed"
    http_status = 422


def _require_started(sessions: SessionService[MazeState], session_id: str) -> MazeState:
    loaded = sessions.load(session_id)
    if loaded.version == 0:
        raise LabyrinthError("no such session", code=NOT_STARTED)
    return loaded.state


def issue(
    sessions: SessionService[MazeState],
    grant: RoleToken,
    request: IssueToken,
    secret: bytes,
    now: int,
) -> str:
    """GM: a player token (for a member of the party), a spectator's, or a renewed GM's."""
    if grant.role != "gm":
        raise Forbidden("only the GM issues tokens")
    state = _require_started(sessions, grant.session_id)
    if request.member is not None and request.member not in state.member_ids:
        raise LabyrinthError(f"unknown party member {request.member!r}", code=UNKNOWN_PLAYER)
    return issue_token(
        secret,
        grant.session_id,
        request.role,
        now,
        request.member,
        request.ttl_seconds,
        tenant=grant.tenant,
        # In ms, after any revocation made until now (which covers the same second).
        now_ms=max(now_ms(), now * 1000),
    )


def send(
    sessions: SessionService[MazeState],
    grant: RoleToken,
    command: PlayerCommand | GmCommand,
) -> dict[str, Any]:
    """Run a command as this token allows; the events and view come back for its viewer."""
    authorize(grant, command)
    # No separate "has it started?" read: `execute` loads the state (one stream read past
    # the cached version), and every command the API accepts is refused `not_started` by
    # the engine on a session with no events, recording nothing.
    try:
        done = sessions.execute(
            grant.session_id,
            command.to_domain(),
            SystemRng(),
            seen_version=command.seen_version,
            command_id=scoped_command_id(grant, command.command_id),
        )
    except LabyrinthError as exc:
        if exc.code == NOT_STARTED:
            raise LabyrinthError("no such session", code=NOT_STARTED) from None
        raise
    except WrongExpectedVersion as exc:  # a `seen_version` for a session with no events
        if exc.actual_version == 0:
            raise LabyrinthError("no such session", code=NOT_STARTED) from None
        raise
    viewer = viewer_of(grant)
    return {
        "version": done.version,
        "duplicate": done.duplicate,
        "events": feed(done.events, viewer),
        "view": view_for(done.state, viewer),
    }


def look(
    sessions: SessionService[MazeState], grant: RoleToken, as_gm: bool = False
) -> dict[str, Any]:
    """The session's state as this token's viewer sees it (the GM view only for the GM)."""
    if as_gm and grant.role != "gm":
        raise Forbidden("only the GM may read the GM view")
    loaded = sessions.load(grant.session_id)
    if loaded.version == 0:
        raise LabyrinthError("no such session", code=NOT_STARTED)
    viewer = viewer_of(grant)
    return {
        "session_id": grant.session_id,
        "role": grant.role,
        "member": grant.member,
        "version": loaded.version,
        "view": view_for(loaded.state, viewer),
    }


def history(
    sessions: SessionService[MazeState], grant: RoleToken, after: int = 0, limit: int = 100
) -> dict[str, Any]:
    """This viewer's events after version `after` (exclusive), at most `limit` of them."""
    store = sessions.store
    stream = sessions.stream(grant.session_id)
    page = store.read(stream, from_version=after + 1, limit=max(1, min(limit, MAX_PAGE)))
    return {
        "version": store.version(stream),
        "events": feed(page, viewer_of(grant)),
    }


def revoke_in_session(
    sessions: SessionService[MazeState],
    grant: RoleToken,
    request: RevokeTokens,
    secret: bytes,
) -> dict[str, Any]:
    """GM: revoke tokens of this session (a member must be one of the party)."""
    if grant.role != "gm":
        raise Forbidden("only the GM revokes tokens")
    if request.member is not None:
        state = _require_started(sessions, grant.session_id)
        if request.member not in state.member_ids:
            raise LabyrinthError(f"unknown party member {request.member!r}", code=UNKNOWN_PLAYER)
    revocations = Revocations(sessions.store.client, sessions.store.keys)
    return revoke(revocations, sessions.stream(grant.session_id), grant, request, secret)
