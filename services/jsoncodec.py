"""Events and states as JSON and back, for the event store: exact round trips.

Shared by every event-sourced aggregate (the labyrinth, campaigns): one pydantic adapter
per event class, and the stored type name comes from the aggregate's EventRegistry
(services/eventtypes.py), never from a class name. Decoding goes by that stored name —
never by guessing which member of a union a dict fits — after the registry has upcast
data stored in an older shape.

A set-valued field (a runner's effects) is stored as a sorted list: pydantic writes a
set in its iteration order, which follows string hashes and so differs from process to
process; sorted, one event has one stored form wherever it was encoded.
"""

from __future__ import annotations

import json
from typing import Any, Generic, TypeVar

from pydantic import TypeAdapter, ValidationInfo

from services.eventtypes import EventRegistry

E = TypeVar("E")
S = TypeVar("S")

STORED: dict[str, Any] = {"stored": True}
"""The validation context of data read back from the store: a validator that refuses what
an earlier release accepted (services/labyrinth/expressions.py) lets it through there,
so a rule added later never makes a stored event or snapshot unreadable."""


def is_stored(info: ValidationInfo) -> bool:
    """Whether a validator runs on data read back from the store (see `STORED`)."""
    return bool(info.context and info.context.get("stored"))


class JsonCodec(Generic[E, S]):
    """Encodes and decodes one aggregate's events (by registered name) and its state."""

    def __init__(self, registry: EventRegistry, state_type: type[S]) -> None:
        self.registry = registry
        self._events: dict[type, TypeAdapter[Any]] = {
            cls: TypeAdapter(cls) for cls in registry.classes
        }
        self._state: TypeAdapter[S] = TypeAdapter(state_type)
        # The adapters whose values may hold a set: only those pay for sorting them.
        self._with_sets = {id(a) for a in (*self._events.values(), self._state) if _holds_sets(a)}
        # By class, what encoding an event takes (a command encodes a few, each time):
        # its stored type and its adapter's serializer (what `dump_python` calls).
        self._encoders: dict[type, tuple[str, TypeAdapter[Any]]] = {
            cls: (registry.registration(cls).stored_type, adapter)
            for cls, adapter in self._events.items()
        }

    def encode_event(self, event: E) -> tuple[str, dict[str, Any]]:
        """(stored type, JSON-ready fields) of an event."""
        found = self._encoders.get(type(event))
        if found is None:
            self.registry.registration(event)  # raises UnknownEventType
            raise TypeError(f"{type(event).__qualname__} was registered after this codec")
        stored, adapter = found
        return stored, self._dump(adapter, event)

    def _dump(self, adapter: TypeAdapter[Any], value: Any) -> dict[str, Any]:
        data: dict[str, Any] = adapter.serializer.to_python(value, mode="json")
        if id(adapter) in self._with_sets:
            data = _sets_sorted(data, adapter.serializer.to_python(value))
        return data

    def decode_event(self, name: str, data: dict[str, Any]) -> E:
        """The event of a stored type and fields (upcast first when stored in an old shape)."""
        cls, current = self.registry.read(name, data)
        event: E = self._events[cls].validate_python(current, context=STORED)
        return event

    def encode_state(self, state: S) -> dict[str, Any]:
        """The state as JSON (for snapshots)."""
        return self._dump(self._state, state)

    def decode_state(self, data: dict[str, Any]) -> S:
        """A state from its JSON form."""
        return self._state.validate_python(data, context=STORED)


def _holds_sets(adapter: TypeAdapter[Any]) -> bool:
    """Whether a value of the adapter's type may hold a set (an array of unique items)."""
    return '"uniqueItems": true' in json.dumps(adapter.json_schema(mode="serialization"))


def _sets_sorted(plain: Any, python: Any) -> Any:
    """`plain` (a JSON-mode dump) with each list that was a set in `python` (the same
    value dumped in Python mode, walked alongside) sorted by its items' JSON."""
    if isinstance(python, set | frozenset):
        items = [_sets_sorted(p, q) for p, q in zip(plain, python, strict=True)]
        return sorted(items, key=lambda item: json.dumps(item, sort_keys=True))
    if isinstance(plain, dict):
        values = python.values()
        return {k: _sets_sorted(v, q) for (k, v), q in zip(plain.items(), values, strict=True)}
    if isinstance(plain, list):
        return [_sets_sorted(p, q) for p, q in zip(plain, python, strict=True)]
    return plain
