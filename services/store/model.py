"""What goes into the store and what comes out."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

# One encoder for every event: json.dumps with options builds a new one per call.
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"))

ANY = -1
"""Expected version: append whatever the stream's version is."""
NO_STREAM = 0
"""Expected version: the stream must not exist yet."""


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append: a unique id (the idempotency key), a type and a JSON body."""

    id: str
    type: str
    data: dict[str, Any] = field(default_factory=dict)

    def body(self) -> str:
        """The data as canonical JSON (sorted keys), the stored form."""
        return _ENCODER.encode(self.data)


@dataclass(frozen=True, slots=True)
class RecordedEvent:
    """An event as stored: its stream, version in the stream and global position."""

    stream: str
    version: int
    position: int
    id: str
    type: str
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class AppendResult:
    """Versions and global positions of an appended (or idempotently re-sent) batch."""

    versions: tuple[int, ...]
    positions: tuple[int, ...]
    duplicate: bool = False

    @property
    def last_version(self) -> int:
        """The stream's version after the append."""
        return self.versions[-1]


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A stream's folded state at a version, stored apart from the events."""

    stream: str
    version: int
    state: dict[str, Any]
