"""Events and states as JSON and back, for the event store: exact round trips.

Shared by every event-sourced aggregate (the labyrinth, campaigns): one pydantic adapter
per event class, so decoding goes by the stored type name, never by guessing which
member of a union a dict fits.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Generic, TypeVar

from pydantic import TypeAdapter

E = TypeVar("E")
S = TypeVar("S")


class JsonCodec(Generic[E, S]):
    """Encodes and decodes one aggregate's events (by class name) and its state."""

    def __init__(self, event_types: Iterable[type], state_type: type[S]) -> None:
        self._events: dict[str, TypeAdapter[Any]] = {
            cls.__name__: TypeAdapter(cls) for cls in event_types
        }
        self._state: TypeAdapter[S] = TypeAdapter(state_type)

    def encode_event(self, event: E) -> tuple[str, dict[str, Any]]:
        """(type name, JSON-ready fields) of an event."""
        name = type(event).__name__
        data: dict[str, Any] = self._events[name].dump_python(event, mode="json")
        return name, data

    def decode_event(self, name: str, data: dict[str, Any]) -> E:
        """The event of a stored type name and fields."""
        event: E = self._events[name].validate_python(data)
        return event

    def encode_state(self, state: S) -> dict[str, Any]:
        """The state as JSON (for snapshots)."""
        data: dict[str, Any] = self._state.dump_python(state, mode="json")
        return data

    def decode_state(self, data: dict[str, Any]) -> S:
        """A state from its JSON form."""
        return self._state.validate_python(data)
