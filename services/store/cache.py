"""The session service's cache of folded states: least recently used first out, bounded
both by count and by (estimated) bytes.

A count alone does not bound memory: a long session's state (its log, its revealed
cards) is many times a fresh one's, so 1,024 of them could take far more than the
process has. An entry's size is estimated by walking its objects (`approximate_size`):
when a stream is first stored, and again once it has moved `REMEASURE_EVERY` versions
on. A state grows by a few small objects an event, so in between the last estimate
stands; walking the whole state on every command took about half of a command's CPU
(bench/api.py, server CPU per flip). Every 128 versions, about 25 flips (a flip writes
about five events): at 32, a table in play walked its state every sixth or seventh flip,
some 10 µs a flip for a 66 µs walk (below), 2-3% of a flip's CPU, and more as its log
grows; most of the bench's flip-only tables end before 32. A value whose unchanging
parts (below) are not the ones measured is measured again at once: a new session's
first state is the empty one, and the state its first event makes holds the maze, most
of its size.

Most of a state never changes within a stream: a maze's definition and card table are
60-85% of its walk. The cache's `shared` names such parts of a value; a newer value of
the stream that holds the very same objects (identity) is walked without them, and
their size measured before is added. So is a value of another stream that holds them:
the labyrinth keeps one copy of each definition and card table per process
(services/labyrinth/interned.py), so a new session's or a cold load's first walk skips
them too (400 µs a fresh standard-deck state, 66 µs without them, on the bench machine).
Each entry still counts their size: the byte bound stays an upper bound.
"""

from __future__ import annotations

import sys
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Generic, TypeVar

from services.slotted import quick_init

V = TypeVar("V")

DEFAULT_MAX_BYTES = 256 * 2**20
_WALK_LIMIT = 200_000  # objects: past this the estimate stops growing (still bounded)
REMEASURE_EVERY = 128  # versions a stream may move on before its size is estimated again
MEASURED_PARTS = 64  # unchanging parts whose size is remembered across streams
LARGEST_MEASURED = 256 * 1024  # bytes: larger parts are not kept alive for it


def approximate_size(value: object, skip: tuple[object, ...] = ()) -> int:
    """Bytes held by `value` and everything it reaches (each object counted once), less
    what only `skip`'s objects reach (measured apart)."""
    seen: set[int] = {id(part) for part in skip}
    stack: list[object] = [value]
    total = 0
    getsizeof, parts_of = sys.getsizeof, _PARTS_OF
    while stack and len(seen) < _WALK_LIMIT:
        obj = stack.pop()
        key = id(obj)
        if key in seen:
            continue
        seen.add(key)
        total += getsizeof(obj)
        kind = type(obj)
        parts = parts_of.get(kind)
        if parts is None:
            parts = parts_of[kind] = _parts_reader(kind)
        if parts is not _NOTHING:
            stack.extend(parts(obj))
    return total


_LEAVES = (str, bytes, int, float, bool, type(None))
_PARTS_OF: dict[type, Callable[[Any], Iterable[object]]] = {}


def _NOTHING(obj: object) -> Iterable[object]:
    return ()


def _parts_reader(kind: type) -> Callable[[Any], Iterable[object]]:
    """How the walk reaches what an object of this type holds (found once per type): a
    leaf (a string, a number, an enum of them) holds nothing it counts."""
    if issubclass(kind, _LEAVES):
        return _NOTHING
    if issubclass(kind, dict):
        return lambda obj: (*obj.keys(), *obj.values())
    if issubclass(kind, list | tuple | set | frozenset):
        return lambda obj: obj
    slots = getattr(kind, "__slots__", ())
    names = (slots,) if isinstance(slots, str) else tuple(slots)
    if "__dict__" not in dir(kind) and not names:
        return _NOTHING
    read = attrgetter(*names) if len(names) > 1 else None

    def parts(obj: object) -> Iterable[object]:
        found: list[object] = []
        fields = getattr(obj, "__dict__", None)
        if isinstance(fields, dict):
            found.extend(fields.values())
        if read is not None:
            try:
                found.extend(read(obj))
            except AttributeError:  # an unset slot
                found.extend(getattr(obj, name, None) for name in names)
        elif names:
            found.append(getattr(obj, names[0], None))
        return found

    return parts


def _same(parts: tuple[object, ...], before: tuple[object, ...]) -> bool:
    """Whether `parts` are the very objects `before` holds."""
    return len(parts) == len(before) and all(a is b for a, b in zip(parts, before, strict=True))


@quick_init
@dataclass(frozen=True, slots=True)
class _Entry(Generic[V]):
    value: V
    version: int
    size: int
    measured_at: int  # the version whose walk gave `size`
    shared: tuple[object, ...] = ()  # the value's unchanging parts, as `shared` named them
    shared_size: int = 0  # their size, within `size`


class StateCache(Generic[V]):
    """Values by stream with their version; the newest version of a stream wins.

    Not thread-safe on its own: the session service calls it under its lock.
    """

    def __init__(
        self,
        max_entries: int,
        max_bytes: int = DEFAULT_MAX_BYTES,
        shared: Callable[[V], tuple[object, ...]] | None = None,
    ) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.shared = shared
        self.bytes = 0
        self._entries: OrderedDict[str, _Entry[V]] = OrderedDict()
        self._measured: dict[tuple[int, ...], tuple[tuple[object, ...], int]] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, stream: str) -> V | None:
        """The cached value of `stream`, if any."""
        entry = self._entries.get(stream)
        return None if entry is None else entry.value

    def remember(self, stream: str, value: V, version: int) -> None:
        """Keep `value` (at `version`) unless a newer version is cached; evict past the bounds."""
        current = self._entries.get(stream)
        if current is not None and current.version > version:
            return
        shared = self.shared(value) if self.shared is not None else ()
        known = current if current is not None and _same(shared, current.shared) else None
        if known is not None and version - known.measured_at < REMEASURE_EVERY:
            entry = _Entry(  # close enough
                value, version, known.size, known.measured_at, known.shared, known.shared_size
            )
        else:  # measured, less the unchanging parts if they were measured before
            shared_size = known.shared_size if known is not None else self._shared_size(shared)
            size = shared_size + approximate_size(value, skip=shared)
            entry = _Entry(value, version, size, version, shared, shared_size)
        size = entry.size
        self.pop(stream)
        self._entries[stream] = entry
        self.bytes += size
        while self._entries and (
            len(self._entries) > self.max_entries or self.bytes > self.max_bytes
        ):
            _, evicted = self._entries.popitem(last=False)
            self.bytes -= evicted.size

    def _shared_size(self, shared: tuple[object, ...]) -> int:
        """The size of a value's unchanging parts: walked once for all the streams that hold
        the very same objects (a process's one copy of a maze's definition and card
        table, services/labyrinth/interned.py), then remembered with them."""
        key = tuple(map(id, shared))
        found = self._measured.get(key)
        if found is not None and _same(shared, found[0]):
            return found[1]
        size = approximate_size(shared) - sys.getsizeof(shared)
        if shared and size <= LARGEST_MEASURED:  # kept alive with their size (so that no
            # other object takes their ids): 16 MB at most, outside the byte bound
            self._measured[key] = (shared, size)
            if len(self._measured) > MEASURED_PARTS:
                del self._measured[next(iter(self._measured))]
        return size

    def pop(self, stream: str) -> None:
        """Forget `stream`."""
        entry = self._entries.pop(stream, None)
        if entry is not None:
            self.bytes -= entry.size
