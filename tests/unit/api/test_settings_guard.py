"""The settings guard: production refuses each unsafe configuration with a clear message."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from infra.settings import Settings, UnsafeSettingsError, broker_problem, redis_database
from workers.app import make_app

SECRET = "p" * 40
EVENTS = "redis://events.internal:6379/0"
BROKER = "redis://broker.internal:6379/0"

# A production environment the guard accepts; each test breaks one thing.
SAFE = {
    "DAEDALUS_ENV": "production",
    "DAEDALUS_SECRET_KEY": SECRET,
    "REDIS_URL": EVENTS,
    "DAEDALUS_REDIS_URL": BROKER,
}


def settings_from(monkeypatch: pytest.MonkeyPatch, env: Mapping[str, str | None]) -> Settings:
    for name in (*SAFE, "DAEDALUS_GRAPHIQL", "DAEDALUS_REDIS_ALLOW_UNSAFE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        if value is not None:
            monkeypatch.setenv(name, value)
    return Settings()


def refused(monkeypatch: pytest.MonkeyPatch, **changes: str | None) -> str:
    with pytest.raises(UnsafeSettingsError) as error:
        settings_from(monkeypatch, {**SAFE, **changes})
    return str(error.value)


def test_a_safe_production_configuration_is_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = settings_from(monkeypatch, dict(SAFE))
    assert settings.production and not settings.graphiql_on


@pytest.mark.parametrize("secret", [None, "", "short", "x" * 31])
def test_a_missing_or_short_secret_is_refused(
    monkeypatch: pytest.MonkeyPatch, secret: str | None
) -> None:
    assert "DAEDALUS_SECRET_KEY" in refused(monkeypatch, DAEDALUS_SECRET_KEY=secret)


def test_the_refusal_never_echoes_the_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    message = refused(monkeypatch, DAEDALUS_SECRET_KEY="leaky-secret", DAEDALUS_GRAPHIQL="true")
    assert "leaky-secret" not in message


def test_an_event_store_allowed_to_be_unsafe_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    message = refused(monkeypatch, DAEDALUS_REDIS_ALLOW_UNSAFE="true")
    assert "DAEDALUS_REDIS_ALLOW_UNSAFE" in message and "appendonly" in message


def test_graphiql_switched_on_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "DAEDALUS_GRAPHIQL" in refused(monkeypatch, DAEDALUS_GRAPHIQL="true")


@pytest.mark.parametrize(
    "broker",
    [
        None,  # unset: the workers fall back to REDIS_URL
        EVENTS,
        "redis://EVENTS.internal/0",  # default port, host case
        "redis://:password@events.internal:6379",  # default db, credentials differ
        "redis://events.internal:6379/0?health_check_interval=2",
    ],
)
def test_a_broker_on_the_event_store_database_is_refused(
    monkeypatch: pytest.MonkeyPatch, broker: str | None
) -> None:
    message = refused(monkeypatch, DAEDALUS_REDIS_URL=broker)
    assert "same Redis database" in message and "DAEDALUS_REDIS_URL" in message


@pytest.mark.parametrize(
    "broker",
    ["redis://events.internal:6379/1", "redis://events.internal:6380/0", BROKER],
)
def test_a_broker_on_another_database_or_server_is_accepted(
    monkeypatch: pytest.MonkeyPatch, broker: str
) -> None:
    assert settings_from(monkeypatch, {**SAFE, "DAEDALUS_REDIS_URL": broker}).broker_url == broker


def test_a_url_that_is_not_redis_is_refused_without_a_traceback_of_inputs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert "must be Redis URLs" in refused(monkeypatch, DAEDALUS_REDIS_URL="http://broker")


def test_every_problem_is_named_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    message = refused(
        monkeypatch,
        DAEDALUS_SECRET_KEY=None,
        DAEDALUS_REDIS_URL=None,
        DAEDALUS_GRAPHIQL="true",
        DAEDALUS_REDIS_ALLOW_UNSAFE="1",
    )
    for name in ("DAEDALUS_SECRET_KEY", "DAEDALUS_REDIS_ALLOW_UNSAFE", "same Redis", "GRAPHIQL"):
        assert name in message


def test_development_allows_what_production_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    env: dict[str, str | None] = {
        "DAEDALUS_ENV": "development",
        "REDIS_URL": EVENTS,
        "DAEDALUS_GRAPHIQL": "true",
        "DAEDALUS_REDIS_ALLOW_UNSAFE": "true",
    }
    settings = settings_from(monkeypatch, env)
    assert settings.graphiql_on and settings.redis_allow_unsafe


def test_unix_sockets_compare_by_path_and_db() -> None:
    assert redis_database("unix:///run/r.sock") == redis_database("redis+socket:///run/r.sock")
    assert redis_database("unix:///run/r.sock?db=1") != redis_database("unix:///run/r.sock")
    assert broker_problem(None, BROKER) is None  # the embedded store: nothing to compare


def test_workers_refuse_a_broker_on_the_event_store_in_production(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The workers build the same Settings as the API: the same guard, the same message.
    with pytest.raises(UnsafeSettingsError, match="same Redis database"):
        make_app(settings_from(monkeypatch, {**SAFE, "DAEDALUS_REDIS_URL": None}))
    assert make_app(settings_from(monkeypatch, SAFE)).conf.broker_url == BROKER
    development = {"DAEDALUS_ENV": "development", "REDIS_URL": EVENTS}
    assert make_app(settings_from(monkeypatch, development)).conf.broker_url == EVENTS
