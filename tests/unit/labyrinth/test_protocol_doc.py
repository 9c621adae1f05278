"""docs/PROTOCOL.md names every event type, command and refusal code the code can produce."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest

from api.sessions.commands import SessionCommand
from api.tables import access, tokens
from services.labyrinth import errors
from services.labyrinth.events import EVENT_TYPES
from services.store import errors as store_errors
from services.store.sessions import SessionBusy

DOC = Path(__file__).parents[3] / "docs" / "PROTOCOL.md"


def _named() -> set[str]:
    """Every `code-spelled` name that opens a row of one of the document's tables."""
    return set(re.findall(r"^\| `([A-Za-z_]+)` \|", DOC.read_text(encoding="utf-8"), re.M))


def _command_types() -> set[str]:
    members = typing.get_args(typing.get_args(SessionCommand)[0])
    return {typing.get_args(m.model_fields["type"].annotation)[0] for m in members}


def _refusal_codes() -> set[str]:
    rules = {v for k, v in vars(errors).items() if k.isupper() and isinstance(v, str)}
    service: set[str] = {
        getattr(cls, "code")  # noqa: B009
        for module in (store_errors, tokens, access)
        for cls in vars(module).values()
        if isinstance(cls, type)
        and cls.__module__ == module.__name__  # not a base class imported there
        and isinstance(getattr(cls, "code", None), str)
    }
    return rules | service | {errors.LabyrinthError.code, SessionBusy.code, "invalid_request"}


@pytest.mark.parametrize(
    ("what", "names"),
    [
        ("event type", {t.__name__ for t in EVENT_TYPES}),
        ("command", _command_types() | {"StartMaze"}),
        ("refusal code", _refusal_codes()),
    ],
)
def test_the_protocol_document_names_every(what: str, names: set[str]) -> None:
    missing = sorted(names - _named())
    assert not missing, f"docs/PROTOCOL.md does not document these {what}s: {missing}"


def test_the_sets_checked_are_the_codes_full_sets() -> None:
    # A vacuous check (an empty set, a parse that finds nothing) would pass above.
    assert len(EVENT_TYPES) >= 43 and "MazeEnded" in {t.__name__ for t in EVENT_TYPES}
    assert {"FlipCard", "OverrideTrap", "EndMaze"} <= _command_types()
    assert {"not_your_turn", "action_locked", "session_busy", "forbidden"} <= _refusal_codes()
