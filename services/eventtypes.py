"""Stored event type names: a contract between the code and every stream already stored.

An event is stored as (type, data). The type is the name its class is registered under
here, never the class's Python name: a class can be renamed or moved without touching a
stored event, and the public `type` clients see stays what it was.

When an event's shape has to change, its class is registered at the next `version` and
an upcaster, keyed by (name, old version), turns data stored at the old version into
the new shape. Upcasters run on read, before decoding, so stored streams are never
rewritten. Version 1 is stored as the plain name (every event stored so far); a later
version as `Name@2`. A name the code no longer uses can be kept readable with
`formerly=`; docs/STORE.md has the rules.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")
Data = dict[str, Any]
Upcaster = Callable[[Data], Data]

VERSION_MARK = "@"


class UnknownEventType(LookupError):
    """A stored type this code cannot read (unknown, or written by a newer version)."""


class EventRegistryError(ValueError):
    """A registration that would make stored names ambiguous."""


@dataclass(frozen=True, slots=True)
class Registration:
    """One event class: its stored name and the version of its current shape."""

    name: str
    cls: type
    version: int

    @property
    def stored_type(self) -> str:
        """The type string new events of this class are stored under."""
        return self.name if self.version == 1 else f"{self.name}{VERSION_MARK}{self.version}"


def parse_stored_type(stored: str) -> tuple[str, int]:
    """(name, version) of a stored type string: `Name` is version 1, `Name@3` version 3."""
    name, mark, version = stored.partition(VERSION_MARK)
    if not mark:
        return name, 1
    if not version.isdigit() or int(version) < 2:
        raise UnknownEventType(f"malformed stored event type {stored!r}")
    return name, int(version)


class EventRegistry:
    """The stored names of one aggregate's event classes, their versions and upcasters."""

    def __init__(self, aggregate: str) -> None:
        self.aggregate = aggregate
        self._by_name: dict[str, Registration] = {}
        self._by_class: dict[type, Registration] = {}
        self._formerly: dict[str, str] = {}  # a retired stored name → the current one
        self._upcasters: dict[tuple[str, int], Upcaster] = {}

    def event(
        self, name: str, *, version: int = 1, formerly: tuple[str, ...] = ()
    ) -> Callable[[type[T]], type[T]]:
        """Class decorator: store this class's events under `name` at schema `version`."""

        def register(cls: type[T]) -> type[T]:
            self.add(cls, name, version=version, formerly=formerly)
            return cls

        return register

    def add(
        self, cls: type, name: str, *, version: int = 1, formerly: tuple[str, ...] = ()
    ) -> None:
        """Register `cls` under `name` (see `event`); refuses anything ambiguous."""
        if not name or VERSION_MARK in name or version < 1:
            raise EventRegistryError(f"bad event registration {name!r} at version {version}")
        if cls in self._by_class:
            raise EventRegistryError(
                f"{cls.__qualname__} is already stored as {self._by_class[cls].name!r}"
            )
        for taken in (name, *formerly):
            if taken in self._by_name or taken in self._formerly:
                raise EventRegistryError(f"{self.aggregate} event name {taken!r} is taken")
        entry = Registration(name, cls, version)
        self._by_name[name] = self._by_class[cls] = entry
        self._formerly.update(dict.fromkeys(formerly, name))

    def upcaster(self, name: str, version: int) -> Callable[[Upcaster], Upcaster]:
        """Decorator: turn `name`'s data stored at `version` into the shape of `version + 1`."""

        def register(transform: Upcaster) -> Upcaster:
            if (name, version) in self._upcasters:
                raise EventRegistryError(f"two upcasters for {name!r} version {version}")
            self._upcasters[name, version] = transform
            return transform

        return register

    @property
    def registrations(self) -> tuple[Registration, ...]:
        """Every registration, in registration order."""
        return tuple(self._by_name.values())

    @property
    def classes(self) -> tuple[type, ...]:
        """Every registered class, in registration order."""
        return tuple(self._by_class)

    def registration(self, event_or_class: object) -> Registration:
        """The registration of an event (or of its class)."""
        cls = event_or_class if isinstance(event_or_class, type) else type(event_or_class)
        try:
            return self._by_class[cls]
        except KeyError:
            raise UnknownEventType(
                f"{cls.__qualname__} is not a registered {self.aggregate} event"
            ) from None

    def name_of(self, event_or_class: object) -> str:
        """The stable public name of an event (or of its class): the `type` clients see."""
        return self.registration(event_or_class).name

    def missing_upcasters(self) -> list[tuple[str, int]]:
        """(name, version) pairs an old stored event would need and no upcaster covers."""
        return [
            (entry.name, v)
            for entry in self._by_name.values()
            for v in range(1, entry.version)
            if (entry.name, v) not in self._upcasters
        ]

    def read(self, stored_type: str, data: Data) -> tuple[type, Data]:
        """The class to decode a stored event as, and its data upcast to that class's shape."""
        name, version = parse_stored_type(stored_type)
        name = self._formerly.get(name, name)
        entry = self._by_name.get(name)
        if entry is None:
            raise UnknownEventType(f"unknown {self.aggregate} event type {stored_type!r}")
        if version > entry.version:
            raise UnknownEventType(
                f"{self.aggregate} event {stored_type!r} is newer than this code "
                f"(version {entry.version}); deploy the version that wrote it"
            )
        if version < entry.version:
            data = copy.deepcopy(data)  # upcasters may edit in place; the caller's is kept
        for step in range(version, entry.version):
            transform = self._upcasters.get((name, step))
            if transform is None:
                raise UnknownEventType(f"no upcaster for {name!r} from version {step}")
            data = transform(data)
        return entry.cls, data
