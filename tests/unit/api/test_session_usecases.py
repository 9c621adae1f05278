"""Session use cases on the embedded Redis: a command for a session with no events is
refused `not_started` and records nothing (there is no separate "has it started?" read)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from api.metrics import Metrics
from api.runtime import Runtime
from api.sessions import usecases
from api.sessions.commands import CommandBody
from api.sessions.requests import CreateSession
from api.tables.tokens import RoleToken, read_token
from services.labyrinth import LabyrinthError, MazeState
from services.store import start_embedded
from services.store.sessions import SessionService
from tests.unit.api.test_session_commands import OVERRIDES

SECRET = b"k" * 32
COMMANDS: list[dict[str, Any]] = [
    {"type": "FlipCard", "player": "p1", "card": "s1"},
    {"type": "TakeAction", "player": "p1", "action": "scout_ahead"},
    {"type": "ChooseCard", "player": "p1", "card": "s1"},
    {"type": "AttemptDisarm", "player": "p1"},
    {"type": "SkipDisarm", "player": "p1"},
    {"type": "ResolveEncounter", "outcome": "party_fled"},
    {"type": "EndMaze"},
    {"type": "RollInitiative"},
    {"type": "FlipCard", "player": "p1", "card": "s1", "seen_version": 3},
    {"type": "FlipCard", "player": "p1", "card": "s1", "command_id": "retry-0001"},
    *cast(list[dict[str, Any]], OVERRIDES),
]


@pytest.fixture(scope="module")
def sessions(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SessionService[MazeState]]:
    connection = start_embedded(Path(tmp_path_factory.mktemp("redis")))
    connection.client.ping()  # its connection is the module's, not the first test's
    yield Runtime(connection, Metrics()).sessions_for("default")
    connection.close()


@pytest.mark.parametrize("fields", COMMANDS, ids=lambda f: str(f["type"]))
def test_a_command_for_a_session_with_no_events_is_not_started(
    sessions: SessionService[MazeState], fields: dict[str, Any]
) -> None:
    gm = RoleToken("never-created", "gm", None, 0, 2**40, "default")
    body = CommandBody.model_validate(fields).root
    with pytest.raises(LabyrinthError) as refused:
        usecases.send(sessions, gm, body)
    assert (refused.value.code, refused.value.message) == ("not_started", "no such session")
    assert sessions.store.version(sessions.stream("never-created")) == 0


def test_a_flip_answers_with_the_players_events_and_view(
    sessions: SessionService[MazeState],
) -> None:
    party = [{"id": "p1", "name": "Ash"}]
    request = CreateSession.model_validate({"preset": "standard_deck", "party": party})
    created = usecases.create(sessions, request, SECRET, now=0)
    assert read_token(SECRET, created["gm_token"], now=1).role == "gm"
    player = RoleToken(created["session_id"], "player", "p1", 0, 2**40, "default")
    look = usecases.SESSIONS.look(sessions, player)
    slot = next(c["slot"] for c in look["view"]["river"] if not c["face_up"])
    flip = CommandBody.model_validate({"type": "FlipCard", "player": "p1", "card": slot}).root
    done = usecases.send(sessions, player, flip)
    assert done["version"] > created["version"] and not done["duplicate"]
    assert done["events"][0]["type"] == "CardRevealed"
    assert done["view"]["viewer"] == "p1"
