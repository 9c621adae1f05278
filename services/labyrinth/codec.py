"""Events and state as JSON and back, for the event store: exact round trips."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from services.jsoncodec import JsonCodec
from services.labyrinth import interned
from services.labyrinth.decide import decide, decided
from services.labyrinth.events import EVENTS, Event
from services.labyrinth.evolve import evolve
from services.labyrinth.state import MazeState

_CODEC: JsonCodec[Event, MazeState] = JsonCodec(EVENTS, MazeState)


def encode_event(event: Event) -> tuple[str, dict[str, Any]]:
    """(type name, JSON-ready fields) of an event."""
    return _CODEC.encode_event(event)


def decode_event(name: str, data: dict[str, Any]) -> Event:
    """The event of a stored type name and fields."""
    return _CODEC.decode_event(name, data)


def encode_state(state: MazeState) -> dict[str, Any]:
    """The state as JSON (for snapshots)."""
    return _CODEC.encode_state(state)


def decode_state(data: dict[str, Any]) -> MazeState:
    """A state from its JSON form, holding the process's copy of its definition and card
    table (services/labyrinth/interned.py)."""
    state = _CODEC.decode_state(data)
    if state.definition is None:
        return state
    cards = tuple(state.cards.values())
    return replace(
        state,
        definition=interned.definition(state.definition),
        cards=interned.card_table(cards),
    )


class LabyrinthAggregate:
    """The labyrinth engine bound for the session service (see services/store/sessions.py)."""

    name = "labyrinth"
    decide = staticmethod(decide)
    decided = staticmethod(decided)
    evolve = staticmethod(evolve)
    encode_event = staticmethod(encode_event)
    decode_event = staticmethod(decode_event)
    encode_state = staticmethod(encode_state)
    decode_state = staticmethod(decode_state)

    @staticmethod
    def initial() -> MazeState:
        """The state of a session before its first event."""
        return MazeState()

    @staticmethod
    def shared_parts(state: MazeState) -> tuple[object, ...]:
        """What no event after MazeStarted replaces (the state cache measures it once);
        nothing before it."""
        return () if state.definition is None else (state.definition, state.cards)
