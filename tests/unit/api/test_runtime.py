"""The runtime: simulation jobs go to the workers' Redis, not necessarily the event store's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from api.metrics import Metrics
from api.runtime import Runtime
from services.store import Connection, start_embedded


@pytest.fixture(scope="module")
def two_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Connection, Connection]]:
    store = start_embedded(Path(tmp_path_factory.mktemp("store")))
    broker = start_embedded(Path(tmp_path_factory.mktemp("broker")))
    store.client.ping(), broker.client.ping()  # connected by the module, not a test
    yield store, broker
    broker.close()
    store.close()


def test_jobs_use_the_event_store_when_no_broker_is_set(
    two_redis: tuple[Connection, Connection],
) -> None:
    store, _ = two_redis
    runtime = Runtime(store, Metrics())
    assert runtime.jobs_url == store.url
    assert runtime.jobs_client is store.client


def test_jobs_use_the_brokers_redis_when_one_is_set(
    two_redis: tuple[Connection, Connection],
) -> None:
    store, broker = two_redis
    runtime = Runtime(store, Metrics(), broker_url=broker.url)
    assert runtime.jobs_url == broker.url
    runtime.jobs_client.set("probe", "broker")
    try:
        assert broker.client.get("probe") == b"broker"
        assert store.client.get("probe") is None
    finally:
        broker.client.delete("probe")
        runtime.jobs_client.close()
