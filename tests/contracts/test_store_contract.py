"""The event store keeps the promises of trusted event stores, on real Redis.

On one Redis and on a three-master Redis Cluster alike (`ON_CLUSTER`): there, the
tenant's global log is sharded (docs/STORE.md), so "the global log" below reads as
"each log shard", and one Redis is the case of a single shard.
"""

from __future__ import annotations

import multiprocessing as mp
import threading
import uuid
from typing import Any

import pytest
from redis.cluster import RedisCluster
from redis.crc import key_slot

from services.store import (
    ANY,
    NO_STREAM,
    IdempotencyConflict,
    InvalidBatch,
    NewEvent,
    RecordedEvent,
    RedisEventStore,
    Snapshot,
    WrongExpectedVersion,
)
from services.store.client import connect
from services.store.errors import Revoked
from services.store.revocations import Guard, Revocations
from services.store.scripts import CONFLICT_EVENTS
from tests.contracts.writers import batch_appender, racing_appender, steady_writer

CTX = mp.get_context("spawn")

ON_CLUSTER = True


def same_shard(store: RedisEventStore, prefix: str, n: int) -> list[str]:
    """`n` stream names whose events go to one log shard (any names on one Redis)."""
    names = (f"{prefix}{i}" for i in range(10_000))
    first = next(names)
    found = [first]
    found += [s for s in names if store.keys.shard(s) == store.keys.shard(first)][: n - 1]
    return found


def other_shards(store: RedisEventStore, prefix: str, n: int) -> list[str]:
    """`n` stream names in `n` different log shards (any names on one Redis)."""
    if store.keys.shards == 1:
        return [f"{prefix}{i}" for i in range(n)]
    found: dict[int, str] = {}
    for i in range(10_000):
        name = f"{prefix}{i}"
        found.setdefault(store.keys.shard(name), name)
    names = list(found.values())
    return names[:n]


def sequences(store: RedisEventStore, log: list[RecordedEvent]) -> dict[int, list[int]]:
    """Each log shard's sequence numbers, in the order `log` has them."""
    shards = store.keys.shards
    found: dict[int, list[int]] = {}
    for e in log:
        found.setdefault(e.position % shards, []).append(e.position // shards)
    return found


def events(n: int, kind: str = "Happened") -> list[NewEvent]:
    return [NewEvent(str(uuid.uuid4()), kind, {"i": i}) for i in range(n)]


def test_eight_racing_writers_produce_contiguous_versions_without_duplicates(
    store: RedisEventStore, redis_url: str
) -> None:
    with CTX.Pool(8) as pool:
        results = pool.starmap(racing_appender, [(redis_url, store.keys.tenant, "race", 500)] * 8)
    stored = store.read("race")
    assert [e.version for e in stored] == list(range(1, 4001))
    ids = [e.id for e in stored]
    assert len(set(ids)) == 4000
    assert set(ids) == {i for written, _ in results for i in written}
    assert sum(conflicts for _, conflicts in results) > 0  # the race really happened


def test_a_stale_writer_is_rejected_and_the_stream_is_unchanged(store: RedisEventStore) -> None:
    store.append("s", events(3), expected_version=NO_STREAM)
    before = store.read("s")
    with pytest.raises(WrongExpectedVersion) as info:
        store.append("s", events(1), expected_version=2)
    assert (info.value.expected_version, info.value.actual_version) == (2, 3)
    assert info.value.code == "version_conflict"
    assert store.read("s") == before


def test_a_stale_writers_refusal_carries_the_events_it_missed(store: RedisEventStore) -> None:
    # What a read after the expected version returns, in the same reply: a writer a few
    # events behind catches up without a read of its own.
    store.append("s", events(1), expected_version=NO_STREAM)
    store.append("s", events(2), expected_version=1)
    with pytest.raises(WrongExpectedVersion) as info:
        store.append("s", events(1), expected_version=1)
    assert info.value.newer == store.read("s", from_version=2)
    assert [e.version for e in info.value.newer] == [2, 3]
    # Ahead of the stream, or too far behind it: the versions only.
    with pytest.raises(WrongExpectedVersion) as ahead:
        store.append("s", events(1), expected_version=7)
    assert (ahead.value.actual_version, ahead.value.newer) == (3, None)
    for version in range(3, 3 + CONFLICT_EVENTS + 1):
        store.append("s", events(1), expected_version=version)
    with pytest.raises(WrongExpectedVersion) as far:
        store.append("s", events(1), expected_version=3)
    assert (far.value.actual_version, far.value.newer) == (4 + CONFLICT_EVENTS, None)
    with pytest.raises(WrongExpectedVersion) as limit:  # exactly CONFLICT_EVENTS behind
        store.append("s", events(1), expected_version=4)
    assert limit.value.newer == store.read("s", from_version=5)
    assert limit.value.newer is not None and len(limit.value.newer) == CONFLICT_EVENTS


def _triples(batch: list[NewEvent]) -> list[tuple[str, str, str]]:
    return [(e.id, e.type, e.body()) for e in batch]


def _fresh(kind: str, body: str) -> tuple[str, str, str]:
    return (str(uuid.uuid4()), kind, body)


@pytest.mark.parametrize(
    ("bad", "raw"),
    [
        (
            lambda good: [*good[:5], NewEvent(str(uuid.uuid4()), "", {}), *good[5:]],
            lambda good: [*good[:5], _fresh("", "{}"), *good[5:]],
        ),
        (
            lambda good: [*good[:5], NewEvent(str(uuid.uuid4()), "X", {"x": object()}), *good[5:]],
            lambda good: [*good[:5], _fresh("X", "{not json"), *good[5:]],
        ),
        (
            lambda good: [*good[:5], good[0], *good[5:]],
            lambda good: [*good[:5], good[0], *good[5:]],
        ),
        (lambda good: [], lambda good: []),
    ],
    ids=["empty-type", "not-json", "repeated-id", "empty-batch"],
)
def test_a_batch_with_one_bad_event_writes_nothing(
    store: RedisEventStore, bad: Any, raw: Any
) -> None:
    store.append("b", events(2))
    head = store.head()
    with pytest.raises(InvalidBatch):
        store.append("b", bad(events(10)))  # the client refuses it before sending
    assert store.version("b") == 2 and store.head() == head
    # Sent anyway (a client that skipped its checks), the append script itself refuses
    # it before its first write: a bad sixth event leaves the first five unwritten.
    with pytest.raises(InvalidBatch, match="the store refused the batch"):
        store._script_append("b", raw(_triples(events(10))), ANY)
    assert store.version("b") == 2 and store.head() == head
    assert len(store.read_all()) == 2


def test_a_batch_overlapping_stored_events_writes_nothing(store: RedisEventStore) -> None:
    first = events(3)
    store.append("o", first)
    with pytest.raises(IdempotencyConflict) as info:
        store.append("o", [first[2], *events(2)])
    assert info.value.code == "idempotency_conflict"
    assert store.version("o") == 3


def test_a_batch_refused_at_the_streams_version_leaves_no_trace(store: RedisEventStore) -> None:
    # At the stream's version (or ANY) the script claims a batch's ids as it checks them:
    # a stored id among them must take every claim, and the log's counter, back.
    stored = events(2)
    first = store.append("t", stored)
    head = store.head()
    fresh = events(2)
    with pytest.raises(IdempotencyConflict):  # two new ids, then a stored one
        store.append("t", [*fresh, stored[1]], expected_version=2)
    with pytest.raises(IdempotencyConflict):  # stored ids in another order
        store.append("t", list(reversed(stored)), expected_version=ANY)
    again = store.append("t", stored, expected_version=ANY)  # a retry: its first answer
    assert again.duplicate
    assert (again.versions, again.positions) == (first.versions, first.positions)
    assert store.version("t") == 2 and store.head() == head
    assert [store.lookup("t", e.id) for e in fresh] == [None, None]
    later = store.append("t", fresh, expected_version=2)
    assert not later.duplicate and later.versions == (3, 4)
    step = store.keys.shards  # the next sequences of the stream's shard: no gap
    assert later.positions == (first.positions[-1] + step, first.positions[-1] + 2 * step)


def test_an_identical_batch_retried_three_times_is_stored_once(store: RedisEventStore) -> None:
    batch = events(4)
    first = store.append("i", batch, expected_version=NO_STREAM)
    for _ in range(3):
        again = store.append("i", batch, expected_version=NO_STREAM)
        assert again.duplicate
        assert (again.versions, again.positions) == (first.versions, first.positions)
    assert store.version("i") == 4
    assert len(store.read_all()) == 4


def test_a_batch_whose_ids_another_fingerprint_recorded_is_refused_and_writes_nothing(
    store: RedisEventStore,
) -> None:
    # A command id reused for another command: the same ids (they derive from the id),
    # another fingerprint. Refused wherever the script finds the ids: at the stream's
    # version (claimed as checked), behind it (before the conflict), with ANY.
    batch = events(2)
    first = store.append("f", batch, expected_version=NO_STREAM, fingerprint="first-command")
    head = store.head()
    other = [NewEvent(e.id, "Other", {"other": True}) for e in batch]
    for expected in (2, NO_STREAM, ANY):
        for reused in (batch, other):
            with pytest.raises(IdempotencyConflict) as info:
                store.append("f", reused, expected_version=expected, fingerprint="other-command")
            assert info.value.code == "idempotency_conflict"
        # The same fingerprint is a retry, and so is a batch without one (nobody can tell).
        for fingerprint in ("first-command", None):
            again = store.append("f", batch, expected_version=expected, fingerprint=fingerprint)
            assert again.duplicate
            assert (again.versions, again.positions) == (first.versions, first.positions)
    assert store.version("f") == 2 and store.head() == head
    # The fingerprint is kept with the batch's first event, as the stream holds it.
    assert [e.fingerprint for e in store.read("f")] == ["first-command", None]
    later = store.append("f", events(1), expected_version=2, fingerprint="next-command")
    step = store.keys.shards  # nothing claimed by the refusals: the log has no gap
    assert later.versions == (3,) and later.positions == (first.positions[-1] + step,)


def test_a_batch_stored_without_a_fingerprint_is_a_retry_of_any_fingerprint(
    store: RedisEventStore,
) -> None:
    # Stored before fingerprints were (or by a caller that gives none): cannot tell.
    batch = events(2)
    first = store.append("n", batch)
    for expected in (2, NO_STREAM):
        again = store.append("n", batch, expected_version=expected, fingerprint="any-command")
        assert again.duplicate and again.versions == first.versions
    assert [e.fingerprint for e in store.read("n")] == [None, None]
    assert store.version("n") == 2


def test_a_guarded_batch_of_a_revoked_token_is_refused_first_and_writes_nothing(
    store: RedisEventStore,
) -> None:
    Revocations(store.client, store.keys).revoke("g", "member:p1", 2_000)
    later = Guard(2_001, ("all", "role:player", "member:p1"))  # issued after the cutoff
    stored = events(2)
    assert store.append("g", stored, guard=later).versions == (1, 2)
    assert later.checked
    for batch in (events(1), stored):  # a new batch, and a retry of a stored one
        covered = Guard(2_000, ("all", "role:player", "member:p1"))  # issued at the cutoff
        with pytest.raises(Revoked) as info:
            store.append("g", batch, expected_version=2, guard=covered)
        assert covered.checked and info.value.code == "token_revoked"
    other = Guard(1_000, ("all", "role:player", "member:p2"))  # another member's: not covered
    assert store.append("g", events(1), guard=other).versions == (3,)
    assert store.version("g") == 3 and len(store.read("g")) == 3


def test_the_same_ids_in_another_order_are_not_the_same_batch(store: RedisEventStore) -> None:
    batch = events(3)
    store.append("r", batch)
    with pytest.raises(IdempotencyConflict):
        store.append("r", list(reversed(batch)))


def test_concurrent_batches_never_interleave_in_the_global_log(
    store: RedisEventStore, redis_url: str
) -> None:
    # Four streams of one log shard (on one Redis, of the one log): their batches race.
    streams = same_shard(store, "g", 4)
    with CTX.Pool(4) as pool:
        runs = pool.starmap(
            batch_appender, [(redis_url, store.keys.tenant, name, 1000) for name in streams]
        )
    step = store.keys.shards  # positions along one shard: sequence * shards + shard
    for positions in runs:
        assert positions == list(range(positions[0], positions[0] + 1000 * step, step))
    log = store.read_all(limit=None)
    assert [e.position for e in log] == [p * step + store.keys.shard(streams[0]) for p in
                                         range(1, 4001)]  # fmt: skip
    union = sorted((e for name in streams for e in store.read(name)), key=lambda e: e.position)
    assert union == log


def test_reading_a_stream_from_a_version(store: RedisEventStore) -> None:
    store.append("v", events(10))
    tail = store.read("v", from_version=7)
    assert [e.version for e in tail] == [7, 8, 9, 10]
    assert [e.data["i"] for e in tail] == [6, 7, 8, 9]
    assert store.read("missing") == [] and store.version("missing") == 0


def test_a_tailing_reader_sees_every_event_once_in_order_while_writers_run(
    store: RedisEventStore, redis_url: str
) -> None:
    total = 4 * 300
    seen: list[RecordedEvent] = []
    # Two streams share a log shard, two have one each (on one Redis: one log).
    shared = same_shard(store, "w", 2)
    streams = [*shared, *[s for s in other_shards(store, "x", 3) if s not in shared][:2]]
    if store.keys.shards > 1:
        assert len({store.keys.shard(s) for s in streams}) == 3

    def follow() -> None:
        cursor = store.log_start()
        while len(seen) < total:
            batch, cursor = store.follow(cursor, block_ms=2000, limit=100)
            seen.extend(batch)

    reader = threading.Thread(target=follow)
    reader.start()
    with CTX.Pool(4) as pool:
        pool.starmap(steady_writer, [(redis_url, store.keys.tenant, s, 300) for s in streams])
    reader.join(timeout=60)
    assert not reader.is_alive()
    assert len(seen) == total and len({e.id for e in seen}) == total
    # Every log shard in commit order, each event once (one Redis: positions 1..total).
    for found in sequences(store, seen).values():
        assert found == list(range(1, len(found) + 1))
    for s in streams:
        assert [e.version for e in seen if e.stream == s] == list(range(1, 301))
    if store.keys.shards == 1:
        assert [e.position for e in seen] == list(range(1, total + 1))
    assert store.head() == total and store.log_head().count == total


def test_snapshots_are_kept_apart_and_only_move_forward(store: RedisEventStore) -> None:
    store.append("snap", events(5))
    store.save_snapshot(Snapshot("snap", 5, {"count": 5}))
    store.save_snapshot(Snapshot("snap", 3, {"count": 3}))  # older: ignored
    snap = store.load_snapshot("snap")
    assert snap == Snapshot("snap", 5, {"count": 5})
    assert store.version("snap") == 5  # snapshots are not events
    store.delete_snapshots("snap")
    assert store.load_snapshot("snap") is None


def test_the_latest_snapshot_and_the_events_after_it_come_in_one_read(
    store: RedisEventStore,
) -> None:
    assert store.load_latest("late") == (None, [])  # no stream, no snapshot
    store.append("late", events(8))
    snap, after = store.load_latest("late")
    assert snap is None and [e.version for e in after] == list(range(1, 9))
    assert after == store.read("late")
    store.save_snapshot(Snapshot("late", 5, {"count": 5}))
    snap, after = store.load_latest("late")
    assert snap == Snapshot("late", 5, {"count": 5})
    assert after == store.read("late", 6) and [e.version for e in after] == [6, 7, 8]
    store.save_snapshot(Snapshot("late", 8, {"count": 8}))
    assert store.load_latest("late") == (Snapshot("late", 8, {"count": 8}), [])
    store.client.script_flush()  # a restarted server forgot the scripts: sent again
    store.save_snapshot(Snapshot("late", 7, {"count": 7}))  # older: kept out
    assert store.load_latest("late")[0] == Snapshot("late", 8, {"count": 8})


def test_a_streams_keys_and_its_log_shard_share_one_slot(store: RedisEventStore) -> None:
    k = store.keys
    for stream in ("a", "session-1", "campaign:x", "w7"):
        shard = k.shard(stream)
        keys = [k.events(stream), k.ids(stream), k.intents(stream), k.snapshot(stream)]
        keys.append(k.revocations(stream))
        if k.shards > 1:  # on a cluster the log shard too; one Redis has one log apart
            keys += [k.log(shard), k.sequence(shard)]
        assert len({key_slot(key.encode()) for key in keys}) == 1


def test_a_tenants_log_shards_spread_over_the_masters(redis_url: str) -> None:
    with connect(redis_url) as client:
        store = RedisEventStore(client, "spread")
        slots = {key_slot(store.keys.log(shard).encode()) for shard in range(store.keys.shards)}
        if isinstance(client, RedisCluster):
            assert len(slots) == store.keys.shards
            nodes = [client.get_node_from_key(store.keys.log(s)) for s in range(16)]  # type: ignore[no-untyped-call]
            masters = {node.name for node in nodes}
            assert len(masters) == 3, masters
        else:
            assert store.keys.shards == 1


def test_the_log_is_read_in_pages_from_a_cursor(store: RedisEventStore) -> None:
    streams = other_shards(store, "p", 5)
    for _round in range(3):
        for s in streams:
            store.append(s, events(2))
    cursor, pages = store.log_start(), []
    while True:
        page, cursor = store.read_log(cursor, limit=7)
        if not page:
            break
        assert len(page) <= 7
        pages.extend(page)
    assert len(pages) == 30 and len({e.id for e in pages}) == 30
    assert cursor == store.log_head() and cursor.count == 30
    for s in set(streams):
        mine = [e for e in pages if e.stream == s]
        assert [e.version for e in mine] == list(range(1, len(mine) + 1))
    assert store.read_log(cursor)[0] == []
    # A follower with nothing to read waits block_ms, then answers nothing.
    assert store.follow(cursor, block_ms=50) == ([], cursor)
    if store.keys.shards > 1:
        with pytest.raises(ValueError, match="LogCursor"):
            store.tail(0)
        with pytest.raises(ValueError, match="LogCursor"):
            store.read_all(after=5)


def test_racing_claims_of_one_command_id_all_act_on_the_first_intent(
    store: RedisEventStore,
) -> None:
    start = threading.Barrier(8)
    answers: list[tuple[str, bool]] = []
    lock = threading.Lock()

    def attempt(i: int) -> None:
        start.wait()
        answer = store.claim("camp", "cmd-1", f"intent {i}")
        with lock:
            answers.append(answer)

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    first = store.intent("camp", "cmd-1")
    assert first is not None and {intent for intent, _ in answers} == {first}
    assert sorted(stored for _, stored in answers) == [False] * 7 + [True]
    assert store.intent("camp", "cmd-2") is None


def test_tables_and_revocations_of_a_tenant(store: RedisEventStore) -> None:
    from services.store.revocations import Revocations
    from services.store.tables import Tables

    tables = Tables(store.client, store.keys)
    for i in range(5):
        tables.add("sessions", f"s{i}", 1000 + i)
    first = tables.page("sessions", 3)
    assert first.cursor is not None
    second = tables.page("sessions", 3, first.cursor)
    assert [t for t, _ in first.ids + second.ids] == ["s4", "s3", "s2", "s1", "s0"]
    assert tables.put_code("CODE", {"role": "player"}, 60)
    assert not tables.put_code("CODE", {"role": "gm"}, 60)
    assert tables.take_code("CODE") == {"role": "player"} and tables.take_code("CODE") is None
    revocations = Revocations(store.client, store.keys)
    revocations.revoke("s1", "player:p1", 2000)
    revocations.revoke("s1", "player:p1", 1500)  # earlier: the later cutoff stays
    assert revocations.cutoffs("s1", ["player:p1", "gm"]) == [2000, None]
    assert revocations.table("s1") == {"player:p1": 2000}


@pytest.fixture(params=["embedded", "cluster"])
def owned_url(request: pytest.FixtureRequest) -> str:
    """The URL of a server the tests own (whose settings a test may change for a moment)."""
    owned = request.getfixturevalue(request.param)
    url: str = owned.url
    return url


def test_an_evicting_server_is_refused_and_named(owned_url: str) -> None:
    from services.store import UnsafeRedis, check_durability

    with connect(owned_url) as client:
        check_durability(client)
        # One server (on a cluster, the last master) turns evicting: the store refuses.
        if isinstance(client, RedisCluster):
            node = client.get_primaries()[-1]  # type: ignore[no-untyped-call]
            where, options = f" on {node.name}", {"target_nodes": node}
        else:
            where, options = "", {}
        client.config_set("maxmemory-policy", "allkeys-lru", **options)
        try:
            with pytest.raises(UnsafeRedis, match=f"allkeys-lru{where}: events could be"):
                check_durability(client)
            assert check_durability(client, allow_unsafe=True) == [
                f"maxmemory-policy is allkeys-lru{where}: events could be evicted"
            ]
        finally:
            client.config_set("maxmemory-policy", "noeviction", **options)
        assert check_durability(client) == []
