"""What goes into the store and what comes out."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import orjson

from services.slotted import quick_init

# What orjson refuses (an integer past 64 bits) the standard library writes; one encoder
# for it (json.dumps with options builds a new one per call).
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
_CANONICAL = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
# Where an integer past 64 bits can be: 18 digits always fit (10**18 < 2**63), 19 may not
# (-9223372036854775809). Found as a run of 19 zeros once every digit is a zero and every
# other byte a space: a regular expression took ten times as long.
_DIGITS_AS_ZEROS = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_LONG_RUN = b"0" * 19


def read_json(data: bytes) -> Any:
    """`json.loads(data)`: the same value, or the same error, for stored JSON (an event's
    data, a snapshot's state) and GraphQL request bodies, several times faster.

    orjson reads an integer past 64 bits as a float, its digits lost, instead of refusing
    it: a document with a run of 19 digits or more is read by the standard library, as is
    one orjson refuses (NaN, a byte order mark, a lone surrogate, another encoding than
    UTF-8, nesting past orjson's limit)."""
    if _LONG_RUN not in data.translate(_DIGITS_AS_ZEROS):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
    return json.loads(data)


ANY = -1
"""Expected version: append whatever the stream's version is."""
NO_STREAM = 0
"""Expected version: the stream must not exist yet."""


@quick_init
@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append: a unique id (the idempotency key), a type and a JSON body."""

    id: str
    type: str
    data: dict[str, Any] = field(default_factory=dict)

    def body(self) -> str:
        """The data as canonical JSON (sorted keys, compact, UTF-8 text), the stored form."""
        try:
            return orjson.dumps(self.data, option=_CANONICAL).decode()
        except TypeError:  # orjson's refusals; the standard library's are the batch's
            return _ENCODER.encode(self.data)


@quick_init
@dataclass(frozen=True, slots=True)
class RecordedEvent:
    """An event as stored: its stream, version in the stream and global position."""

    stream: str
    version: int
    position: int
    id: str
    type: str
    data: dict[str, Any]
    # The first event of a batch recorded with a fingerprint (which command recorded it,
    # RedisEventStore.append) carries it, as read from its stream; not part of the event.
    fingerprint: str | None = field(default=None, compare=False, repr=False)


@quick_init
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


@quick_init
@dataclass(frozen=True, slots=True)
class Snapshot:
    """A stream's folded state at a version, stored apart from the events."""

    stream: str
    version: int
    state: dict[str, Any]
