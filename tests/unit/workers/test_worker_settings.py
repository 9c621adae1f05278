"""The workers read the one Settings object: every variable means what it means to the API."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import ValidationError

from infra.settings import Settings
from workers import ticks
from workers.app import make_app

EVENTS = "redis://events.internal:6379/0"
BROKER = "redis://broker.internal:6379/1"


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in (
        "REDIS_URL",
        "DAEDALUS_REDIS_URL",
        "DAEDALUS_REDIS_ALLOW_UNSAFE",
        "DAEDALUS_ENV",
        "DAEDALUS_BEAT_LOCK_TIMEOUT",
        "DAEDALUS_TICK_SCAN_SECONDS",
        "DAEDALUS_TICK_LEASE_SECONDS",
    ):
        monkeypatch.delenv(name, raising=False)
    ticks.event_store.cache_clear()
    yield
    ticks.event_store.cache_clear()


@pytest.mark.parametrize("spelling", ["on", "yes", "1", "true"])
def test_the_tick_workers_read_allow_unsafe_as_the_api_does(
    monkeypatch: pytest.MonkeyPatch, spelling: str
) -> None:
    monkeypatch.setenv("DAEDALUS_REDIS_ALLOW_UNSAFE", spelling)
    monkeypatch.setenv("REDIS_URL", EVENTS)
    checked: dict[str, Any] = {}

    def check(client: Any, allow_unsafe: bool) -> None:
        checked.update(host=client.connection_pool.connection_kwargs["host"], allow=allow_unsafe)

    monkeypatch.setattr(ticks, "check_durability", check)
    ticks.event_store()
    assert Settings().redis_allow_unsafe is True
    assert checked == {"host": "events.internal", "allow": True}


def test_the_workers_redis_is_the_broker_url_else_the_event_store() -> None:
    assert Settings(redis_url=EVENTS, broker_url=BROKER).workers_redis_url == BROKER
    assert Settings(redis_url=EVENTS).workers_redis_url == EVENTS
    assert Settings(broker_url=BROKER).event_store_url == BROKER
    assert Settings(redis_url=EVENTS, broker_url=BROKER).event_store_url == EVENTS


def test_beat_reads_its_intervals_from_the_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DAEDALUS_BEAT_LOCK_TIMEOUT", "10")
    monkeypatch.setenv("DAEDALUS_TICK_SCAN_SECONDS", "0.5")
    conf = make_app(Settings(broker_url=BROKER)).conf
    assert conf.broker_url == BROKER
    assert conf.redbeat_lock_timeout == 10
    assert conf.beat_schedule["campaign-clock"]["schedule"] == 0.5
    assert conf.beat_max_loop_interval == 1.0


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DAEDALUS_TICK_LEASE_SECONDS", "0.5"),
        ("DAEDALUS_BEAT_LOCK_TIMEOUT", "1"),
        ("DAEDALUS_TICK_SCAN_SECONDS", "soon"),
    ],
)
def test_a_bad_worker_interval_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError, match=name):
        Settings()
