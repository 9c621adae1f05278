"""Worker functions run in separate processes by the contract tests (importable by spawn)."""

from __future__ import annotations

import uuid

from services.store import NewEvent, RedisEventStore, WrongExpectedVersion
from services.store.client import connect


def racing_appender(url: str, tenant: str, stream: str, count: int) -> tuple[list[str], int]:
    """Append `count` single events by read-version → append(expected) → retry on conflict."""
    with connect(url) as client:
        store = RedisEventStore(client, tenant)
        written: list[str] = []
        conflicts = 0
        while len(written) < count:
            version = store.version(stream)
            event = NewEvent(str(uuid.uuid4()), "Counted", {"n": len(written)})
            try:
                store.append(stream, [event], expected_version=version)
            except WrongExpectedVersion:
                conflicts += 1
                continue
            written.append(event.id)
        return written, conflicts


def batch_appender(url: str, tenant: str, stream: str, size: int) -> list[int]:
    """Append one batch of `size` events; return their global positions."""
    with connect(url) as client:
        events = [NewEvent(str(uuid.uuid4()), "Bulk", {"i": i}) for i in range(size)]
        return list(RedisEventStore(client, tenant).append(stream, events).positions)


def steady_writer(url: str, tenant: str, stream: str, count: int) -> int:
    """Append `count` events one by one (any version); return how many were written."""
    with connect(url) as client:
        store = RedisEventStore(client, tenant)
        for i in range(count):
            store.append(stream, [NewEvent(str(uuid.uuid4()), "Tick", {"i": i})])
        return count
