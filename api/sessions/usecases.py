"""Session use cases on the runtime: blocking (Redis), so callers run them in a thread.

Every output goes through the caller's viewer: the GM sees everything, a player the
table, a spectator the public feed (services/labyrinth/views.py and redact.py).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from api.sessions.commands import GmCommand, PlayerCommand, authorize, own_roll
from api.sessions.requests import CreateSession
from api.tables.access import command_fingerprint, scoped_command_id
from api.tables.kind import Kind
from api.tables.revocation import now_ms
from api.tables.tokens import RoleToken, SessionNotFound
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
from services.store.revocations import Guard
from services.store.sessions import AsyncStore, Executed, SessionService
from services.store.tables import Tables


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


def _unknown_member(member: str) -> DomainError:
    return LabyrinthError(f"unknown party member {member!r}", code=UNKNOWN_PLAYER)


SESSIONS: Kind[MazeState, Viewer] = Kind(
    noun="session",
    seat="member",
    prefix="",
    service_of=lambda runtime, tenant: runtime.sessions_for(tenant),
    viewer_of=viewer_of,
    view=view_for,
    decode=lambda recorded: decode_event(recorded.type, recorded.data),
    redact=redact,
    missing=lambda: SessionNotFound("no such session"),
    absent=lambda: LabyrinthError("no such session", code=NOT_STARTED),
    has_seat=lambda state, member: member in state.member_ids,
    unknown_seat=_unknown_member,
)


def create(
    sessions: SessionService[MazeState],
    request: CreateSession,
    secret: bytes,
    now: int,
    seeds_allowed: bool = True,
) -> dict[str, Any]:
    """Start a maze for a party (and roll initiative unless asked not to); the session's
    id and version and its first two tokens.

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
    tokens = SESSIONS.first_tokens(secret, session_id, now, request.token_ttl_seconds, tenant)
    return {"session_id": session_id, **tokens, "version": done.version}


class SeedNotAllowed(DomainError):
    """A session seed where the deployment does not accept one."""

    code = "seed_not_allowed"
    http_status = 422


def send(
    sessions: SessionService[MazeState],
    grant: RoleToken,
    command: PlayerCommand | GmCommand,
    guard: Guard | None = None,
    events: bool = True,
) -> dict[str, Any]:
    """Run a command as this token allows; the events and view come back for its viewer
    (`guard`: the token's revocation check, made by the append; without `events`, the
    events are left out: a caller that does not read them)."""
    command = own_roll(grant, command)
    authorize(grant, command)
    # No separate "has it started?" read: `execute` loads the state (one stream read past
    # the cached version), and every command the API accepts is refused `not_started` by
    # the engine on a session with no events, recording nothing.
    with _no_such_session():
        done = sessions.execute(**_arguments(grant, command, guard))
    return _answer(grant, done, events)


async def asend(
    sessions: SessionService[MazeState],
    store: AsyncStore,
    grant: RoleToken,
    command: PlayerCommand | GmCommand,
    guard: Guard | None = None,
    events: bool = True,
) -> dict[str, Any]:
    """`send`, awaiting the store in the event loop (`store`: the tenant's asyncio one)."""
    command = own_roll(grant, command)
    authorize(grant, command)
    with _no_such_session():
        done = await sessions.aexecute(store, **_arguments(grant, command, guard))
    return _answer(grant, done, events)


def _arguments(
    grant: RoleToken, command: PlayerCommand | GmCommand, guard: Guard | None
) -> dict[str, Any]:
    """`execute`'s arguments for a command the token sends."""
    command_id = scoped_command_id(grant, command.command_id)
    return {
        "session_id": grant.session_id,
        "command": command.to_domain(),
        "rng": SystemRng(),
        "seen_version": command.seen_version,
        "command_id": command_id,
        "guard": guard,
        "fingerprint": None if command_id is None else command_fingerprint(command),
    }


@contextmanager
def _no_such_session() -> Iterator[None]:
    """A command to a session with no events is refused as one to no session."""
    try:
        yield
    except LabyrinthError as exc:
        if exc.code == NOT_STARTED:
            raise LabyrinthError("no such session", code=NOT_STARTED) from None
        raise
    except WrongExpectedVersion as exc:  # a `seen_version` for a session with no events
        if exc.actual_version == 0:
            raise LabyrinthError("no such session", code=NOT_STARTED) from None
        raise


def _answer(grant: RoleToken, done: Executed[MazeState], events: bool) -> dict[str, Any]:
    """A recorded command's events (none unless `events`) and view, as its sender's
    viewer sees them."""
    viewer = viewer_of(grant)
    return {
        "version": done.version,
        "duplicate": done.duplicate,
        "events": SESSIONS.feed(done.events, viewer, done.decided) if events else [],
        "view": view_for(done.state, viewer),
    }
