"""Refusals shared by the players' commands and the GM's overrides."""

from __future__ import annotations

from services.labyrinth.errors import (
    CHOICE_PENDING,
    ENCOUNTER_PENDING,
    INITIATIVE_PENDING,
    MAZE_ENDED,
    NOT_STARTED,
    TRAP_PENDING,
    LabyrinthError,
)
from services.labyrinth.state import MazeState

# What the table waits for in each waiting phase: its code and message.
WAITING = {
    "choice": (CHOICE_PENDING, "choose among the revealed cards first"),
    "trap": (TRAP_PENDING, "disarm the trap or let it go off first"),
    "encounter": (ENCOUNTER_PENDING, "the GM records the encounter's outcome first"),
    "initiative": (INITIATIVE_PENDING, "roll initiative first"),
}


def refuse(code: str, message: str) -> LabyrinthError:
    """The error for a refused command."""
    return LabyrinthError(message, code=code)


def check_live(state: MazeState) -> None:
    """Refuse anything before the start or after the end."""
    if state.phase == "not_started":
        raise refuse(NOT_STARTED, "the maze has not started")
    if state.phase in ("escaped", "ended"):
        raise refuse(MAZE_ENDED, "the maze is over")


def check_waiting(state: MazeState, allowed: tuple[str, ...]) -> None:
    """Refuse with the pending step's code unless the phase is one of `allowed`."""
    if state.phase not in allowed and state.phase in WAITING:
        code, message = WAITING[state.phase]
        raise refuse(code, message)
