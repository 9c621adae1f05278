"""The event store on Redis Streams: atomic conditional appends, a global log, tailing.

On one Redis the tenant's global log is one stream, in commit order. On a Redis Cluster
it is LOG_SHARDS log shards (services/store/keys.py), each written atomically with its
streams; a reader follows them all with a `LogCursor` (one checkpoint per shard).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from redis.cluster import RedisCluster
from redis.exceptions import NoScriptError

from services.store.client import AnyRedis
from services.store.errors import (
    IdempotencyConflict,
    InvalidBatch,
    Revoked,
    WrongExpectedVersion,
)
from services.store.keys import LOG_SHARDS, Keys
from services.store.model import (
    ANY,
    AppendResult,
    NewEvent,
    RecordedEvent,
    Snapshot,
    read_json,
)
from services.store.revocations import Guard
from services.store.scripts import APPEND, APPEND_SHARDED, LOAD, SAVE_SNAPSHOT

MAX_BATCH = 1000

# How often a cluster's log shards are read again while a follower waits for events.
POLL_SECONDS = 0.02


@dataclass(frozen=True, slots=True)
class LogCursor:
    """Where a reader of the global log is: the last sequence read in each log shard.

    On one Redis there is one shard and its sequence is the global position.
    """

    sequences: tuple[int, ...]

    @staticmethod
    def start(shards: int) -> LogCursor:
        """Before the first event."""
        return LogCursor((0,) * shards)

    def past(self, events: Sequence[RecordedEvent]) -> LogCursor:
        """This cursor moved past `events` (read from the log after it)."""
        shards = len(self.sequences)
        moved = list(self.sequences)
        for e in events:
            shard, sequence = e.position % shards, e.position // shards
            moved[shard] = max(moved[shard], sequence)
        return LogCursor(tuple(moved))

    @property
    def count(self) -> int:
        """How many events lie before the cursor (sequences start at 1 in every shard)."""
        return sum(self.sequences)


class RedisEventStore:
    """One tenant's streams in one Redis or a Redis Cluster; the only code that writes events."""

    def __init__(self, client: AnyRedis, tenant: str = "default") -> None:
        self.client = client
        self.cluster = isinstance(client, RedisCluster)
        self.keys = Keys(tenant, LOG_SHARDS if self.cluster else 1)
        self.script = SHARDED_APPEND_SCRIPT if self.cluster else APPEND_SCRIPT
        # Each log shard's keys (the log, its counter), as every append names them.
        self._logs = [(self.keys.log(s), self.keys.sequence(s)) for s in range(self.keys.shards)]

    # -- writing -----------------------------------------------------------------------

    def append(
        self,
        stream: str,
        events: Sequence[NewEvent],
        expected_version: int = ANY,
        guard: Guard | None = None,
        fingerprint: str | None = None,
    ) -> AppendResult:
        """Append a batch atomically if the stream is at `expected_version` (ANY: always).

        Retrying an identical batch returns the positions it got the first time; a batch
        sharing only some ids with stored events is refused. With a `guard`, a revoked
        role token's batch is refused first (`Revoked`), in the same script. A
        `fingerprint` (which command the batch records) is stored with it, and its ids
        found stored under another one are refused (`IdempotencyConflict`): a command id
        reused for another command, not a retry.
        """
        batch = triples(stream, events)
        return self._script_append(stream, batch, expected_version, guard, fingerprint)

    def _script_append(
        self,
        stream: str,
        batch: Sequence[tuple[str, str, str]],
        expected_version: int,
        guard: Guard | None = None,
        fingerprint: str | None = None,
    ) -> AppendResult:
        """Run the append script on (id, type, JSON body) triples, as they are."""
        keys, args = self.append_call(stream, batch, expected_version, guard, fingerprint)
        reply = self.run_script(self.script, keys, args)
        return self.appended(stream, expected_version, guard, reply)

    # The session path's commands are each split in two, the command and the reading of
    # its reply, so that the asyncio store (services/store/aio.py) sends the same ones and
    # reads them the same way.

    def append_call(
        self,
        stream: str,
        batch: Sequence[tuple[str, str, str]],
        expected_version: int,
        guard: Guard | None = None,
        fingerprint: str | None = None,
    ) -> tuple[list[str], list[Any]]:
        """The append script's keys and arguments for (id, type, JSON body) triples."""
        k = self.keys
        shard = k.shard(stream)
        args: list[Any] = [stream, expected_version, len(batch)]
        if self.cluster:
            args.append(shard)
        args.append(fingerprint or "")
        for triple in batch:
            args += triple
        keys = [k.events(stream), k.ids(stream), *self._logs[shard]]
        if guard is not None:
            keys.append(k.revocations(stream))
            args += [guard.issued_ms, *guard.scopes]
        return keys, args

    def appended(
        self, stream: str, expected_version: int, guard: Guard | None, reply: Any
    ) -> AppendResult:
        """The append script's reply: the result, or the refusal raised."""
        if len(reply) == 3 and reply[0] == b"ok":  # one event written: the usual reply
            if guard is not None:
                guard.checked = True
            return AppendResult((reply[1],), (reply[2],))
        tag = _str(reply[0])
        if guard is not None and tag != "invalid":
            guard.checked = True  # the script checks the guard before anything but shape
        if tag == "revoked":
            raise Revoked("this token has been revoked")
        if tag in ("ok", "dup"):
            nums = [int(x) for x in reply[1:]]
            return AppendResult(tuple(nums[0::2]), tuple(nums[1::2]), duplicate=tag == "dup")
        if tag == "conflict":
            newer = recorded_from_script(stream, reply[2]) if len(reply) > 2 else None
            raise WrongExpectedVersion(stream, expected_version, int(reply[1]), newer)
        if tag == "invalid":
            raise InvalidBatch(f"the store refused the batch: {_str(reply[1])}")
        if tag == "other":
            raise IdempotencyConflict(
                "these event ids are already stored, recorded by another command"
            )
        raise IdempotencyConflict(
            "some events of this batch are already stored, others are not"
            if tag == "partial"
            else "these event ids are already stored, but not as this batch"
        )

    # -- reading -----------------------------------------------------------------------

    def version(self, stream: str) -> int:
        """The stream's version: how many events it holds (0 if it does not exist)."""
        length: Any = self.client.xlen(self.keys.events(stream))
        return int(length)

    def read(
        self, stream: str, from_version: int = 1, limit: int | None = None
    ) -> list[RecordedEvent]:
        """The stream's events from `from_version` (inclusive), in order."""
        entries: Any = self.client.xrange(*self.read_call(stream, from_version), count=limit)
        return recorded_from_stream(stream, entries)

    def read_call(self, stream: str, from_version: int = 1) -> tuple[str, str, str]:
        """XRANGE's key, start and end for `read`."""
        return self.keys.events(stream), f"0-{max(from_version, 1)}", "+"

    def read_all(self, after: int = 0, limit: int | None = 1000) -> list[RecordedEvent]:
        """The tenant's global log after position `after` (exclusive), in order.

        On a Redis Cluster a single position is no checkpoint (the log is sharded): only
        `after=0` (from the start) is accepted there; follow the log with `read_log`.
        """
        if self.cluster:
            if after != 0:
                raise ValueError("on a Redis Cluster, read the log after a LogCursor")
            return self.read_log(self.log_start(), limit)[0]
        entries: Any = self.client.xrange(self.keys.all, f"({_id(after)}", "+", count=limit)
        return [_recorded_from_log(eid, fields) for eid, fields in entries]

    def tail(self, after: int, block_ms: int = 250, limit: int = 1000) -> list[RecordedEvent]:
        """Events after `after` (exclusive), waiting up to block_ms when there are none.

        `block_ms` stays under the client's socket timeout, or a quiet log reads as a
        stalled server. One Redis only; `follow` works on both.
        """
        if self.cluster:
            raise ValueError("on a Redis Cluster, follow the log with a LogCursor")
        reply: Any = self.client.xread({self.keys.all: _id(after)}, count=limit, block=block_ms)
        if not reply:
            return []
        (_key, entries), *_ = reply
        return [_recorded_from_log(eid, fields) for eid, fields in entries]

    # -- the global log, one Redis or a cluster ------------------------------------------

    def log_start(self) -> LogCursor:
        """A cursor before the tenant's first event."""
        return LogCursor.start(self.keys.shards)

    def log_head(self) -> LogCursor:
        """A cursor after the last event written (where a new follower starts)."""
        if not self.cluster:
            return LogCursor((self.head(),))
        pipe = self.client.pipeline(transaction=False)
        for shard in range(self.keys.shards):
            pipe.get(self.keys.sequence(shard))
        return LogCursor(tuple(int(v) if v is not None else 0 for v in pipe.execute()))

    def read_log(
        self, after: LogCursor, limit: int | None = 1000
    ) -> tuple[list[RecordedEvent], LogCursor]:
        """The events after `after` (at most `limit`), and the cursor past them.

        Each shard's events come in commit order, and so each stream's in version order;
        the shards are merged by position (`sequence * shards + shard`), which interleaves
        them fairly but says nothing about which of two shards committed first.
        """
        if not self.cluster:
            events = self.read_all(after.sequences[0], limit)
            return events, after.past(events)
        pipe = self.client.pipeline(transaction=False)
        for shard, sequence in enumerate(after.sequences):
            pipe.xrange(self.keys.log(shard), f"({_id(sequence)}", "+", count=limit)
        events = [
            _recorded_from_log(eid, fields, shard, self.keys.shards)
            for shard, entries in enumerate(pipe.execute())
            for eid, fields in entries
        ]
        events.sort(key=lambda e: e.position)
        if limit is not None:
            events = events[:limit]
        return events, after.past(events)

    def follow(
        self, after: LogCursor, block_ms: int = 250, limit: int = 1000
    ) -> tuple[list[RecordedEvent], LogCursor]:
        """`read_log`, waiting up to `block_ms` for an event when there is none yet.

        One Redis blocks in XREAD; a cluster's shards live on several servers, so the
        follower reads them all (one pipelined round per server) every POLL_SECONDS.
        """
        if not self.cluster:
            events = self.tail(after.sequences[0], block_ms, limit)
            return events, after.past(events)
        deadline = time.monotonic() + block_ms / 1000
        while True:
            events, moved = self.read_log(after, limit)
            if events or time.monotonic() >= deadline:
                return events, moved
            time.sleep(min(POLL_SECONDS, max(0.0, deadline - time.monotonic())))

    def lookup(self, stream: str, event_id: str) -> tuple[int, int] | None:
        """(version, position) of a stored event id in a stream, or None."""
        found: Any = self.client.hget(self.keys.ids(stream), event_id)
        return looked_up(found)

    def head(self) -> int:
        """How many events the tenant's log holds: on one Redis, the last global position
        written (0 when the log is empty)."""
        if self.cluster:
            return self.log_head().count
        value: Any = self.client.get(self.keys.position)
        return int(value) if value is not None else 0

    # -- command intents ---------------------------------------------------------------

    def intent(self, stream: str, command_id: str) -> str | None:
        """What the first attempt of `command_id` claimed it would do, if it ran."""
        found: Any = self.client.hget(self.keys.intents(stream), command_id)
        return None if found is None else found.decode()

    def claim(self, stream: str, command_id: str, intent: str) -> tuple[str, bool]:
        """Record `intent` for `command_id` unless an attempt already did.

        Returns the intent stored (this one, or the first attempt's) and whether this
        call stored it: racing attempts of one command all act on the first one's intent.
        """
        key = self.keys.intents(stream)
        pipe = self.client.pipeline(transaction=True)
        pipe.hsetnx(key, command_id, intent)
        pipe.hget(key, command_id)
        stored, found = pipe.execute()
        return found.decode(), bool(stored)

    # -- snapshots ---------------------------------------------------------------------

    def save_snapshot(self, snapshot: Snapshot) -> None:
        """Store a stream's state at a version (replacing an older snapshot only: checked
        and written in one script)."""
        self.run_script(*self.save_snapshot_call(snapshot))

    def save_snapshot_call(self, snapshot: Snapshot) -> tuple[Script, list[str], list[Any]]:
        """`save_snapshot`'s script, keys and arguments."""
        fields = snapshot_fields(snapshot)
        return SAVE, [self.keys.snapshot(snapshot.stream)], [fields["version"], fields["state"]]

    def load_snapshot(self, stream: str) -> Snapshot | None:
        """The stream's latest snapshot, if any."""
        found: Any = self.client.hgetall(self.keys.snapshot(stream))
        return snapshot_of(stream, found)

    def load_latest(self, stream: str) -> tuple[Snapshot | None, list[RecordedEvent]]:
        """The stream's latest snapshot (if any) and every event after it, in one round
        trip: what a state not cached here is folded from."""
        return latest_of(stream, self.run_script(*self.load_latest_call(stream)))

    def load_latest_call(self, stream: str) -> tuple[Script, list[str], list[Any]]:
        """`load_latest`'s script, keys and arguments."""
        return LATEST, [self.keys.snapshot(stream), self.keys.events(stream)], []

    def run_script(self, script: Script, keys: list[str], args: list[Any]) -> Any:
        """A script's reply, by its SHA-1 (its text once, if the server forgot it)."""
        try:
            return self.client.evalsha(script.sha, len(keys), *keys, *args)
        except NoScriptError:
            return self.client.eval(script.text, len(keys), *keys, *args)

    def delete_snapshots(self, stream: str) -> None:
        """Forget a stream's snapshot; it is rebuilt from the events."""
        self.client.delete(self.keys.snapshot(stream))


@dataclass(frozen=True, slots=True)
class Script:
    """A Lua script and its SHA-1 (EVALSHA first, EVAL when the server forgot it)."""

    text: str
    sha: str

    @classmethod
    def of(cls, text: str) -> Script:
        """The script of this text."""
        return cls(text, hashlib.sha1(text.encode()).hexdigest())


APPEND_SCRIPT = Script.of(APPEND)
SHARDED_APPEND_SCRIPT = Script.of(APPEND_SHARDED)
LATEST = Script.of(LOAD)
SAVE = Script.of(SAVE_SNAPSHOT)


def latest_of(stream: str, reply: Any) -> tuple[Snapshot | None, list[RecordedEvent]]:
    """The load script's reply, read: the snapshot (if any) and the events after it."""
    version, state, entries = reply
    snapshot = None if version is None else Snapshot(stream, int(version), read_json(state))
    return snapshot, recorded_from_script(stream, entries)


def recorded_from_script(stream: str, entries: Any) -> list[RecordedEvent]:
    """A stream's XRANGE entries as a script returns them (each entry's fields a flat
    list), as recorded events."""
    pairs = [(eid, dict(zip(flat[::2], flat[1::2], strict=True))) for eid, flat in entries]
    return recorded_from_stream(stream, pairs)


def looked_up(found: bytes | None) -> tuple[int, int] | None:
    """An event id's stored "version:position", read."""
    if found is None:
        return None
    version, position = found.decode().split(":")
    return int(version), int(position)


def snapshot_of(stream: str, found: dict[bytes, bytes]) -> Snapshot | None:
    """A snapshot's stored hash, read (None for no hash)."""
    if not found:
        return None
    return Snapshot(stream, int(found[b"version"]), read_json(found[b"state"]))


def snapshot_fields(snapshot: Snapshot) -> dict[Any, Any]:
    """The fields a snapshot is stored as."""
    body = json.dumps(snapshot.state, sort_keys=True, separators=(",", ":"))
    return {"version": snapshot.version, "state": body}


def recorded_from_stream(stream: str, entries: Any) -> list[RecordedEvent]:
    """A stream's XRANGE entries as recorded events."""
    return [_recorded_from_stream(stream, eid, fields) for eid, fields in entries]


def _str(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _id(position: int) -> str:
    return f"0-{position}"


def triples(stream: str, events: Sequence[NewEvent]) -> list[tuple[str, str, str]]:
    """A batch as the append script takes it, (id, type, JSON body); refused (InvalidBatch)
    when it can never be written."""
    if not stream or "{" in stream or "}" in stream:
        raise InvalidBatch("a stream name is non-empty and has no '{' or '}'")
    if not events:
        raise InvalidBatch("an append needs at least one event")
    if len(events) > MAX_BATCH:
        raise InvalidBatch(f"a batch holds at most {MAX_BATCH} events")
    if len(events) > 1 and len({e.id for e in events}) != len(events):
        raise InvalidBatch("a batch repeats an event id")
    batch = []
    for e in events:
        if not e.id or not e.type:
            raise InvalidBatch("every event needs an id and a type")
        try:
            batch.append((e.id, e.type, e.body()))
        except (TypeError, ValueError) as exc:  # not JSON: refuse the whole batch
            raise InvalidBatch(f"event {e.id!r} has data that is not JSON: {exc}") from exc
    return batch


def _text(fields: dict[bytes, bytes], name: str) -> str:
    return fields[name.encode()].decode()


def _recorded_from_stream(stream: str, eid: bytes, fields: dict[bytes, bytes]) -> RecordedEvent:
    fingerprint = fields.get(b"command")
    return RecordedEvent(
        stream=stream,
        version=int(eid.split(b"-")[1]),
        position=int(_text(fields, "pos")),
        id=_text(fields, "id"),
        type=_text(fields, "type"),
        data=read_json(fields[b"data"]),
        fingerprint=None if fingerprint is None else fingerprint.decode(),
    )


def _recorded_from_log(
    eid: bytes, fields: dict[bytes, bytes], shard: int = 0, shards: int = 1
) -> RecordedEvent:
    return RecordedEvent(
        stream=_text(fields, "stream"),
        version=int(_text(fields, "version")),
        position=int(eid.split(b"-")[1]) * shards + shard,
        id=_text(fields, "id"),
        type=_text(fields, "type"),
        data=read_json(fields[b"data"]),
    )
