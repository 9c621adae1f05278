"""The event store keeps the promises of trusted event stores, on real Redis."""

from __future__ import annotations

import multiprocessing as mp
import threading
import uuid
from typing import Any

import pytest

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
from tests.contracts.writers import batch_appender, racing_appender, steady_writer

CTX = mp.get_context("spawn")


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


def test_an_identical_batch_retried_three_times_is_stored_once(store: RedisEventStore) -> None:
    batch = events(4)
    first = store.append("i", batch, expected_version=NO_STREAM)
    for _ in range(3):
        again = store.append("i", batch, expected_version=NO_STREAM)
        assert again.duplicate
        assert (again.versions, again.positions) == (first.versions, first.positions)
    assert store.version("i") == 4
    assert len(store.read_all()) == 4


def test_the_same_ids_in_another_order_are_not_the_same_batch(store: RedisEventStore) -> None:
    batch = events(3)
    store.append("r", batch)
    with pytest.raises(IdempotencyConflict):
        store.append("r", list(reversed(batch)))


def test_concurrent_batches_never_interleave_in_the_global_log(
    store: RedisEventStore, redis_url: str
) -> None:
    with CTX.Pool(4) as pool:
        runs = pool.starmap(
            batch_appender, [(redis_url, store.keys.tenant, f"g{i}", 1000) for i in range(4)]
        )
    for positions in runs:
        assert positions == list(range(positions[0], positions[0] + 1000))
    log = store.read_all(limit=None)
    assert [e.position for e in log] == list(range(1, 4001))
    union = sorted((e for i in range(4) for e in store.read(f"g{i}")), key=lambda e: e.position)
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

    def follow() -> None:
        checkpoint = 0
        while len(seen) < total:
            batch = store.tail(checkpoint, block_ms=2000, limit=100)
            seen.extend(batch)
            if batch:
                checkpoint = batch[-1].position

    reader = threading.Thread(target=follow)
    reader.start()
    with CTX.Pool(4) as pool:
        pool.starmap(
            steady_writer, [(redis_url, store.keys.tenant, f"w{i}", 300) for i in range(4)]
        )
    reader.join(timeout=60)
    assert not reader.is_alive()
    assert [e.position for e in seen] == list(range(1, total + 1))
    assert len({e.id for e in seen}) == total


def test_snapshots_are_kept_apart_and_only_move_forward(store: RedisEventStore) -> None:
    store.append("snap", events(5))
    store.save_snapshot(Snapshot("snap", 5, {"count": 5}))
    store.save_snapshot(Snapshot("snap", 3, {"count": 3}))  # older: ignored
    snap = store.load_snapshot("snap")
    assert snap == Snapshot("snap", 5, {"count": 5})
    assert store.version("snap") == 5  # snapshots are not events
    store.delete_snapshots("snap")
    assert store.load_snapshot("snap") is None
