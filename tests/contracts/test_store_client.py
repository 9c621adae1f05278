"""The store's Redis client: explicit timeouts, StoreUnavailable, one log line per outage."""

from __future__ import annotations

import logging
import signal
import time
from pathlib import Path

import pytest
import redis

from services.store import RedisEventStore
from services.store.client import Timeouts, store_client
from services.store.errors import StoreUnavailable
from tests.owned_redis import OwnedRedis


def test_an_outage_fails_fast_is_logged_once_and_recovery_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    server = OwnedRedis(tmp_path)
    client = store_client(server.url, Timeouts(connect=0.5, socket=0.5), "the test Redis")
    store = RedisEventStore(client, "outage")
    caplog.set_level(logging.INFO, logger="daedalus.store")
    try:
        for _ in range(5):  # nothing listens yet
            started = time.monotonic()
            with pytest.raises(StoreUnavailable) as refused:
                store.version("s")
            assert time.monotonic() - started < 0.5
        assert isinstance(refused.value, redis.ConnectionError)  # old handlers still apply
        assert refused.value.code == "store_unavailable" and refused.value.retry_after >= 1
        server.start()
        assert store.version("s") == 0 and store.version("s") == 0
        server.signal(signal.SIGSTOP)  # a second outage: stalled, so the socket timeout
        started = time.monotonic()
        with pytest.raises(StoreUnavailable):
            pipe = client.pipeline()
            pipe.get("x")
            pipe.get("y")
            pipe.execute()
        assert 0.4 < time.monotonic() - started < 1.0
        server.signal(signal.SIGCONT)
        assert client.ping()
    finally:
        server.stop()
        client.close()
    records = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert [level for level, _ in records] == ["WARNING", "INFO", "WARNING", "INFO"], records
    assert all("the test Redis" in message for _, message in records)


def test_a_cluster_master_down_is_store_unavailable_at_once_and_logged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from services.store.client import StoreCluster, event_store_client
    from tests.owned_cluster import OwnedCluster

    cluster = OwnedCluster(tmp_path / "cluster")
    cluster.start()
    client = event_store_client(cluster.url, Timeouts(connect=0.5, socket=0.5), "the cluster")
    try:
        assert isinstance(client, StoreCluster)
        store = RedisEventStore(client, "down")
        caplog.set_level(logging.INFO, logger="daedalus.store")
        # A stream on the first master, and one on another.
        first = f"127.0.0.1:{cluster.ports[0]}"
        names = [f"s{i}" for i in range(200)]
        node_of = {n: client.get_node_from_key(store.keys.events(n)).name for n in names}  # type: ignore[no-untyped-call]
        lost = next(n for n in names if node_of[n] == first)
        kept = next(n for n in names if node_of[n] != first)
        assert store.version(lost) == 0 and store.version(kept) == 0
        cluster.processes[0].kill()
        cluster.processes[0].wait(timeout=10)
        for _ in range(3):
            started = time.monotonic()
            with pytest.raises(StoreUnavailable):
                store.version(lost)
            assert time.monotonic() - started < 1.0
        records = [(r.levelname, r.getMessage()) for r in caplog.records]
        assert [level for level, _ in records] == ["WARNING"], records
        assert "the cluster is unreachable" in records[0][1]
    finally:
        client.close()
        cluster.stop()


def test_the_asyncio_client_fails_as_fast_and_shares_the_outage_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The API's session commands' client (services/store/aio.py): an unreachable or
    stalled server is StoreUnavailable within the timeouts, and one outage, met by both
    clients, is logged once."""
    import asyncio

    from services.store.aio import AsyncEventStore, async_event_store_client

    server = OwnedRedis(tmp_path)
    timeouts = Timeouts(connect=0.5, socket=0.5)
    blocking = store_client(server.url, timeouts, "the test Redis")
    store = RedisEventStore(blocking, "outage")
    caplog.set_level(logging.INFO, logger="daedalus.store")

    async def scenario() -> None:
        client = async_event_store_client(server.url, timeouts, blocking.outage)
        aio = AsyncEventStore(store, client)
        try:
            for _ in range(3):  # nothing listens yet
                started = time.monotonic()
                with pytest.raises(StoreUnavailable):
                    await aio.read("s")
                assert time.monotonic() - started < 0.5
            with pytest.raises(StoreUnavailable):
                store.version("s")  # the same outage, met by the blocking client
            server.start()
            assert await aio.read("s") == [] and store.version("s") == 0
            server.signal(signal.SIGSTOP)
            started = time.monotonic()
            with pytest.raises(StoreUnavailable):
                await aio.lookup("s", "e")
            assert 0.4 < time.monotonic() - started < 1.0
            server.signal(signal.SIGCONT)
            assert await aio.load_snapshot("s") is None
        finally:
            await client.aclose()

    try:
        asyncio.run(scenario())
    finally:
        server.stop()
        blocking.close()
    records = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert [level for level, _ in records] == ["WARNING", "INFO", "WARNING", "INFO"], records
