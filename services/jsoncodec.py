"""Events and states as JSON and back, for the event store: exact round trips.

Shared by every event-sourced aggregate (the labyrinth, campaigns): one pydantic adapter
per event class, and the stored type name comes from the aggregate's EventRegistry
(services/eventtypes.py), never from a class name. Decoding goes by that stored name —
never by guessing which member of a union a dict fits — after the registry has upcast
data stored in an older shape.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import TypeAdapter

from services.eventtypes import EventRegistry

E = TypeVar("E")
S = TypeVar("S")


class JsonCodec(Generic[E, S]):
    """Encodes and decodes one aggregate's events (by registered name) and its state."""

    def __init__(self, registry: EventRegistry, state_type: type[S]) -> None:
        self.registry = registry
        self._events: dict[type, TypeAdapter[Any]] = {
            cls: TypeAdapter(cls) for cls in registry.classes
        }
        self._state: TypeAdapter[S] = TypeAdapter(state_type)

    def encode_event(self, event: E) -> tuple[str, dict[str, Any]]:
        """(stored type, JSON-ready fields) of an event."""
        stored = self.registry.registration(event).stored_type
        data: dict[str, Any] = self._events[type(event)].dump_python(event, mode="json")
        return stored, data

    def decode_event(self, name: str, data: dict[str, Any]) -> E:
        """The event of a stored type and fields (upcast first when stored in an old shape)."""
        cls, current = self.registry.read(name, data)
        event: E = self._events[cls].validate_python(current)
        return event

    def encode_state(self, state: S) -> dict[str, Any]:
        """The state as JSON (for snapshots)."""
        data: dict[str, Any] = self._state.dump_python(state, mode="json")
        return data

    def decode_state(self, data: dict[str, Any]) -> S:
        """A state from its JSON form."""
        return self._state.validate_python(data)
