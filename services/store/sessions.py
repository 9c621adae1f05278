"""The session service: load → decide → append with the expected version → publish.

Generic over an aggregate (the labyrinth today, campaigns later). Concurrent commands
on one stream never corrupt it: every append is conditional on the version the command
was decided against; on a conflict the service catches up (from the events the refusal
carries, or a read) and decides again, a bounded number of times — unless the caller
said which version it saw (`seen_version`), in which case a conflict is returned to the
caller, who must look again.
"""

from __future__ import annotations

import hashlib
import os
import threading
import uuid
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from services.dice import Rng
from services.slotted import quick_init
from services.store.cache import DEFAULT_MAX_BYTES, StateCache
from services.store.errors import IdempotencyConflict, StoreError, WrongExpectedVersion
from services.store.model import AppendResult, NewEvent, RecordedEvent, Snapshot
from services.store.redis_store import RedisEventStore
from services.store.revocations import Guard

S = TypeVar("S")
T = TypeVar("T")

# A store call: the name of a store method (load_snapshot, read, lookup, append,
# save_snapshot) and its arguments; `Steps` yields them and returns what it computes.
StoreCall = tuple[Any, ...]
Steps = Generator[StoreCall, Any, T]


class AsyncStore(Protocol):
    """The store methods the session steps call, awaitable (services/store/aio.py)."""

    async def load_latest(self, stream: str) -> tuple[Snapshot | None, list[RecordedEvent]]: ...
    async def read(
        self, stream: str, from_version: int = 1, limit: int | None = None
    ) -> list[RecordedEvent]: ...
    async def lookup(self, stream: str, event_id: str) -> tuple[int, int] | None: ...
    async def append(
        self,
        stream: str,
        events: Sequence[NewEvent],
        expected_version: int = ...,
        guard: Guard | None = None,
        fingerprint: str | None = None,
    ) -> AppendResult: ...
    async def save_snapshot(self, snapshot: Snapshot) -> None: ...


# Events read per round trip when collecting a recorded command's batch.
BATCH_PAGE = 64


class Aggregate(Protocol[S]):
    """What the service needs from an event-sourced aggregate."""

    name: str

    def initial(self) -> S: ...
    def decide(self, state: S, command: Any, rng: Rng) -> Sequence[Any]: ...
    def decided(self, state: S, command: Any, rng: Rng) -> tuple[Sequence[Any], S]: ...
    def evolve(self, state: S, event: Any) -> S: ...
    def encode_event(self, event: Any) -> tuple[str, dict[str, Any]]: ...
    def decode_event(self, name: str, data: dict[str, Any]) -> Any: ...
    def encode_state(self, state: S) -> dict[str, Any]: ...
    def decode_state(self, data: dict[str, Any]) -> S: ...


def folded(
    decide: Callable[[S, Any, Rng], Sequence[Any]], evolve: Callable[[S, Any], S]
) -> Callable[[S, Any, Rng], tuple[Sequence[Any], S]]:
    """An aggregate's `decided` from its `decide` and `evolve`: the events, then the state
    folded over them (for an engine that does not fold as it decides)."""

    def decided(state: S, command: Any, rng: Rng) -> tuple[Sequence[Any], S]:
        events = decide(state, command, rng)
        for event in events:
            state = evolve(state, event)
        return events, state

    return decided


class SessionBusy(StoreError):
    """Too many concurrent writers: the command kept losing the race."""

    code = "session_busy"
    http_status = 503
    retry_after = 1  # seconds: the race is over long before


@quick_init
@dataclass(frozen=True, slots=True)
class Loaded(Generic[S]):
    """A session's state and the version it was folded to."""

    state: S
    version: int


@quick_init
@dataclass(frozen=True, slots=True)
class Executed(Generic[S]):
    """The outcome of a command: the events recorded and the state after them.

    `decided` holds the aggregate's own events the command decided, one for each of
    `events` and in their order (what `events` decode to), so that an answer shows them
    without decoding what was just encoded; empty for a duplicate, whose events were
    read back from the store."""

    events: tuple[RecordedEvent, ...]
    state: S
    version: int
    duplicate: bool = False
    decided: tuple[Any, ...] = ()


Publisher = Callable[[str, Sequence[RecordedEvent]], None]


class SessionService(Generic[S]):
    """Runs commands against event-sourced streams of one aggregate type."""

    def __init__(
        self,
        store: RedisEventStore,
        aggregate: Aggregate[S],
        *,
        snapshot_every: int = 100,
        max_retries: int = 8,
        publish: Publisher | None = None,
        cache_size: int = 1024,
        cache_bytes: int = DEFAULT_MAX_BYTES,
    ) -> None:
        self.store = store
        self.aggregate = aggregate
        self.snapshot_every = snapshot_every
        self.max_retries = max_retries
        self.publish = publish
        self.cache_size = cache_size
        # Bounded by count and by estimated bytes (a long session's state is large); the
        # parts of a state that never change (an aggregate's `shared_parts`, if it has
        # them) are measured once per stream.
        parts: Callable[[S], tuple[object, ...]] | None = getattr(aggregate, "shared_parts", None)
        self._cache: StateCache[Loaded[S]] = StateCache(
            cache_size,
            cache_bytes,
            None if parts is None else lambda loaded: parts(loaded.state),
        )
        self._lock = threading.Lock()

    def stream(self, session_id: str) -> str:
        """The stream name of a session."""
        return f"{self.aggregate.name}-{session_id}"

    # Every method that reads or writes the store is written once, as a generator of the
    # store calls it makes (`Steps`: each yields a call and is sent its answer or thrown
    # its error), and run by a driver: `_run` on the store's own client in the caller's
    # thread, `_arun` on an asyncio store (services/store/aio.py) in the event loop.

    def load(self, session_id: str) -> Loaded[S]:
        """The session's state: the cached one or the latest snapshot, plus newer events.

        States are immutable, so a cached state is shared safely; reading the events
        after its version (one round trip, usually empty) keeps it exact even when other
        processes write to the session.
        """
        return self._run(self._load(session_id))

    async def aload(self, store: AsyncStore, session_id: str) -> Loaded[S]:
        """`load` on an asyncio store of the same Redis and tenant, in the event loop."""
        return await _arun(self._load(session_id), store)

    def _load(self, session_id: str) -> Steps[Loaded[S]]:
        stream = self.stream(session_id)
        agg = self.aggregate
        with self._lock:
            cached = self._cache.get(stream)
        newer: list[RecordedEvent]
        if cached is not None:
            state, version = cached.state, cached.version
            newer = yield ("read", stream, version + 1)
        else:  # the latest snapshot and the events after it, in one round trip
            snap: Snapshot | None
            snap, newer = yield ("load_latest", stream)
            state, version = (
                (agg.initial(), 0) if snap is None else (agg.decode_state(snap.state), snap.version)
            )
        loaded = self._folded(state, version, newer)
        self._remember(stream, loaded)
        return loaded

    def _folded(self, state: S, version: int, events: Iterable[RecordedEvent]) -> Loaded[S]:
        """`state` (at `version`) moved on by `events`, in order."""
        agg = self.aggregate
        for recorded in events:
            state = agg.evolve(state, agg.decode_event(recorded.type, recorded.data))
            version = recorded.version
        return Loaded(state, version)

    def _remember(self, stream: str, loaded: Loaded[S]) -> None:
        with self._lock:
            self._cache.remember(stream, loaded, loaded.version)

    def forget(self, session_id: str) -> None:
        """Drop a session's cached state (the next load reads the store)."""
        with self._lock:
            self._cache.pop(self.stream(session_id))

    def replay(self, session_id: str) -> Loaded[S]:
        """The state folded from every event, ignoring snapshots."""
        return self._folded(self.aggregate.initial(), 0, self.store.read(self.stream(session_id)))

    def execute(
        self,
        session_id: str,
        command: Any,
        rng: Rng,
        *,
        seen_version: int | None = None,
        command_id: str | None = None,
        guard: Guard | None = None,
        fingerprint: str | None = None,
    ) -> Executed[S]:
        """Decide and record a command; domain errors propagate and record nothing.

        `command_id` makes a retried request idempotent: its events get ids derived
        from it, so resending it records nothing twice and answers what the first
        attempt recorded (`duplicate`), whether that attempt finished long ago, is
        racing this one, or beat it to the append. Its `fingerprint` (the caller's hash
        of the request: a retry's is the same) is recorded with the events, and a
        command id found recorded under another one raises `IdempotencyConflict`: the id
        was reused for another command, which must not pass for a retry. A `guard` goes
        with the append (RedisEventStore.append): a revoked token's command raises
        `Revoked`, and `guard.checked` says whether the append script got to check it.
        """
        steps = self._execute(
            session_id, command, rng, seen_version, command_id, guard, fingerprint
        )
        return self._run(steps)

    async def aexecute(
        self,
        store: AsyncStore,
        session_id: str,
        command: Any,
        rng: Rng,
        *,
        seen_version: int | None = None,
        command_id: str | None = None,
        guard: Guard | None = None,
        fingerprint: str | None = None,
    ) -> Executed[S]:
        """`execute` on an asyncio store of the same Redis and tenant, in the event loop:
        the same steps, with no thread to hop to (the API's session commands)."""
        steps = self._execute(
            session_id, command, rng, seen_version, command_id, guard, fingerprint
        )
        return await _arun(steps, store)

    def _execute(
        self,
        session_id: str,
        command: Any,
        rng: Rng,
        seen_version: int | None,
        command_id: str | None,
        guard: Guard | None,
        fingerprint: str | None,
    ) -> Steps[Executed[S]]:
        stream = self.stream(session_id)
        if command_id is None:
            fingerprint = None  # nothing to tell apart: random ids are never retried
        agg = self.aggregate
        # A cached state is decided on first without reading the stream: the append is
        # conditional on its version, so one that other processes have moved on from is
        # refused by the store, and the command is decided again on the state read fresh.
        # Whatever a cached state alone refuses (or finds nothing to do for) is decided
        # again on a fresh read too: every answer is the one a fresh read gives. Only a
        # race on a fresh state (read, or caught up from a refusal) counts against
        # `max_retries`.
        with self._lock:
            trusted = self._cache.get(stream)
        caught_up: Loaded[S] | None = None  # a refused append's state, moved on (below)
        conflicts = 0
        while conflicts <= self.max_retries:
            optimistic, refused = trusted is not None, caught_up is not None
            if trusted is not None:
                loaded = trusted
            elif caught_up is not None:
                loaded = caught_up
            else:
                loaded = yield from self._load(session_id)
            trusted = caught_up = None
            # A state caught up from a refusal needs no lookup: the script answered the
            # conflict only once it found none of the batch's ids stored (its first id
            # is the one looked up), in the same step as it read the events.
            if command_id is not None and not refused:
                # Looked up after the state was read: a command recorded before that read
                # is found here, so a retry never decides again on a state that already
                # holds its own events (nor reports that state as a version conflict).
                # Recorded under another fingerprint: another command reused the id.
                done = yield from self._recorded(session_id, command_id, fingerprint)
                if done is not None:
                    return done
            if seen_version is not None and loaded.version != seen_version:
                if optimistic:
                    continue
                raise WrongExpectedVersion(stream, seen_version, loaded.version)
            try:
                events, state = agg.decided(loaded.state, command, rng)
            except Exception:
                if optimistic:
                    continue
                raise
            if not events:
                if optimistic:
                    continue
                return Executed((), loaded.state, loaded.version)
            ids = _event_ids(command_id, len(events))
            batch = [
                NewEvent(event_id, *agg.encode_event(e))
                for event_id, e in zip(ids, events, strict=True)
            ]
            append = ("append", stream, batch, loaded.version, guard, fingerprint)
            try:
                result: AppendResult = yield append
            except WrongExpectedVersion as exc:
                # None of this batch's ids is stored (the script answers a duplicate
                # first): another command moved the session on. With `seen_version`, the
                # state decided on was at it (the check above), so this is the conflict
                # a fresh read would have raised, with the same versions.
                if seen_version is not None:
                    raise
                conflicts += 0 if optimistic else 1
                # The refusal carries the events since (when a few): the state they move
                # this one to is the one a fresh read returns now, without the read.
                caught_up = self._caught_up(stream, loaded, exc)
                continue
            except IdempotencyConflict:
                # A twin attempt recorded a batch of another length under these ids, or
                # another command recorded them (then `_recorded` raises the conflict).
                done = None
                if command_id is not None:
                    done = yield from self._recorded(session_id, command_id, fingerprint)
                if done is None:
                    raise
                return done
            if result.duplicate:
                if command_id is not None:
                    done = yield from self._recorded(session_id, command_id, fingerprint)
                    if done is not None:
                        return done
                first = result.versions[0]
                stored = yield ("read", stream, first, len(result.versions))
                return (yield from self._duplicate(session_id, stored))
            recorded = tuple(
                RecordedEvent(stream, v, p, n.id, n.type, n.data)
                for v, p, n in zip(result.versions, result.positions, batch, strict=True)
            )
            if result.last_version // self.snapshot_every > loaded.version // self.snapshot_every:
                snapshot = Snapshot(stream, result.last_version, agg.encode_state(state))
                yield ("save_snapshot", snapshot)
            self._remember(stream, Loaded(state, result.last_version))
            if self.publish is not None:
                self.publish(stream, recorded)
            return Executed(recorded, state, result.last_version, decided=tuple(events))
        raise SessionBusy(f"session {session_id!r} is too busy: retry the command")

    def _caught_up(
        self, stream: str, loaded: Loaded[S], refused: WrongExpectedVersion
    ) -> Loaded[S] | None:
        """`loaded` moved on by the events a refused append carried (and remembered, as a
        read's state is), or None when it carried none that follow it exactly."""
        newer = refused.newer
        if (
            not newer
            or newer[0].version != loaded.version + 1
            or newer[-1].version != refused.actual_version
            or len(newer) != refused.actual_version - loaded.version
        ):
            return None
        moved = self._folded(loaded.state, loaded.version, newer)
        self._remember(stream, moved)
        return moved

    def recorded(self, session_id: str, command_id: str) -> Executed[S] | None:
        """What a command id recorded (as a duplicate, with the current state), or None."""
        return self._run(self._recorded(session_id, command_id))

    def _recorded(
        self, session_id: str, command_id: str, fingerprint: str | None = None
    ) -> Steps[Executed[S] | None]:
        stream = self.stream(session_id)
        first: tuple[int, int] | None = yield ("lookup", stream, _event_id(command_id, 0))
        if first is None:
            return None
        # A batch is stored contiguously: read on from its first event while the ids match.
        found: list[RecordedEvent] = []
        version = first[0]
        while True:
            page: list[RecordedEvent] = yield ("read", stream, version, BATCH_PAGE)
            if not found and page:
                _same_command(page[0], fingerprint)
            for event in page:
                if event.id != _event_id(command_id, len(found)):
                    return (yield from self._duplicate(session_id, found))
                found.append(event)
            if len(page) < BATCH_PAGE:
                return (yield from self._duplicate(session_id, found))
            version += len(page)

    def _duplicate(self, session_id: str, stored: list[RecordedEvent]) -> Steps[Executed[S]]:
        loaded = yield from self._load(session_id)
        return Executed(tuple(stored), loaded.state, loaded.version, duplicate=True)

    def _run(self, steps: Steps[T]) -> T:
        """Run `steps` on the store's own (blocking) client."""
        store = self.store
        try:
            call = next(steps)
            while True:
                name, *args = call
                try:
                    answer = getattr(store, name)(*args)
                except Exception as exc:
                    call = steps.throw(exc)
                else:
                    call = steps.send(answer)
        except StopIteration as done:
            result: T = done.value
            return result


async def _arun(steps: Steps[T], store: AsyncStore) -> T:
    """Run `steps` on an asyncio store."""
    try:
        call = next(steps)
        while True:
            name, *args = call
            try:
                answer = await getattr(store, name)(*args)
            except Exception as exc:
                call = steps.throw(exc)
            else:
                call = steps.send(answer)
    except StopIteration as done:
        result: T = done.value
        return result


def _same_command(first: RecordedEvent, fingerprint: str | None) -> None:
    """Refuse a command id whose first event another command recorded: the fingerprints
    differ (none on either side, as before fingerprints were stored: cannot tell)."""
    if fingerprint is not None and first.fingerprint not in (None, fingerprint):
        raise IdempotencyConflict(
            "this command_id was used for a different command: a retry resends the same "
            "command; another command needs a new command_id"
        )


def _event_ids(command_id: str | None, count: int) -> list[str]:
    """A new batch's event ids: random (version 4 UUIDs, from one read of the operating
    system's CSPRNG: a read is a system call, and a flip writes about five events), or
    derived from the command's id (`_event_id`), so a retry's events get the same ids."""
    if command_id is not None:
        return [_event_id(command_id, i) for i in range(count)]
    digits = os.urandom(16 * count).hex()
    return [_uuid_text(digits[at : at + 32], "4") for at in range(0, 32 * count, 32)]


def _event_id(command_id: str, index: int) -> str:
    """The id of a command's event `index`: the version 5 UUID of
    `daedalus-command:<command id>:<index>`. The strings `uuid.uuid4()` and `uuid.uuid5()`
    give, formatted from the digest's hex digits (`_uuid_text`): a command writes a few
    events, and the UUID objects cost half again."""
    name = f"daedalus-command:{command_id}:{index}".encode()
    return _uuid_text(hashlib.sha1(_NAMESPACE + name).hexdigest(), "5")


def _uuid_text(digits: str, version: str) -> str:
    """The RFC 4122 UUID of `version` ("4", "5") made of 16 bytes, given as 32 or more hex
    digits (the first 32 used), in its usual text: the version is the 13th digit, and the
    17th keeps its low two bits under the variant's `10` (8, 9, a or b). Written with the
    digits as they are, not the bytes' bits set and formatted again: a flip's five random
    ids in 35 k instructions instead of 42 k."""
    return (
        f"{digits[:8]}-{digits[8:12]}-{version}{digits[13:16]}-"
        f"{_VARIANT[digits[16]]}{digits[17:20]}-{digits[20:32]}"
    )


# A hex digit with its top two bits replaced by the RFC 4122 variant's `10`.
_VARIANT = {f"{n:x}": f"{(n & 0x3) | 0x8:x}" for n in range(16)}

_NAMESPACE = uuid.NAMESPACE_URL.bytes
