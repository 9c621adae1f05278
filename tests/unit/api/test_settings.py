"""Settings: read from the environment, unsafe production settings refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from api.secret_key import KEY_FILE, with_ephemeral_key, with_stored_key
from infra.settings import Settings, UnsafeSettingsError


def test_the_defaults_serve_locally(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HOST", "PORT", "DAEDALUS_DATA_DIR", "DAEDALUS_SECRET_KEY", "DAEDALUS_ENV"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings()
    assert (settings.host, settings.port) == ("127.0.0.1", 8000)
    assert settings.data_dir == Path("data")
    assert settings.secret_key is None  # no built-in key: a random one is used


def test_the_environment_sets_each_field(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.setenv("PORT", "9000")
    monkeypatch.setenv("DAEDALUS_DATA_DIR", "/tmp/d")
    monkeypatch.setenv("DAEDALUS_GRAPHIQL", "false")
    settings = Settings()
    assert (settings.host, settings.port, settings.graphiql) == ("0.0.0.0", 9000, False)
    assert settings.data_dir == Path("/tmp/d")


def test_production_refuses_the_development_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DAEDALUS_ENV", "production")
    monkeypatch.delenv("DAEDALUS_SECRET_KEY", raising=False)
    with pytest.raises(UnsafeSettingsError):
        Settings()


def test_production_accepts_a_long_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DAEDALUS_ENV", "production")
    monkeypatch.setenv("DAEDALUS_SECRET_KEY", "k" * 40)
    assert Settings().secret_key_bytes == b"k" * 40


def test_the_secret_never_shows_in_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DAEDALUS_SECRET_KEY", "s3cret-" * 6)
    assert "s3cret" not in repr(Settings())


def test_without_a_key_each_app_gets_a_random_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DAEDALUS_SECRET_KEY", raising=False)
    a, b = with_ephemeral_key(Settings()), with_ephemeral_key(Settings())
    assert a.secret_key_bytes != b.secret_key_bytes and len(a.secret_key_bytes) >= 32


def test_the_served_key_is_created_once_in_the_data_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("DAEDALUS_SECRET_KEY", raising=False)
    monkeypatch.setenv("DAEDALUS_DATA_DIR", str(tmp_path))
    first = with_stored_key(Settings())
    again = with_stored_key(Settings())
    assert first.secret_key_bytes == again.secret_key_bytes
    assert (tmp_path / KEY_FILE).stat().st_mode & 0o777 == 0o600
    monkeypatch.setenv("DAEDALUS_SECRET_KEY", "k" * 40)
    assert with_stored_key(Settings()).secret_key_bytes == b"k" * 40


def test_processes_default_to_one_per_core_in_production(monkeypatch: pytest.MonkeyPatch) -> None:
    from infra.settings import _cores

    assert Settings(environment="development").api_processes == 1
    monkeypatch.setenv("DAEDALUS_ENV", "production")
    monkeypatch.setenv("DAEDALUS_SECRET_KEY", "p" * 40)
    production = Settings()
    assert production.api_processes == production.worker_processes == _cores()
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    monkeypatch.setenv("DAEDALUS_WORKER_CONCURRENCY", "2")
    assert (Settings().api_processes, Settings().worker_processes) == (3, 2)


def test_a_cluster_url_builds_cluster_clients_beside_one_redis_for_celery(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from redis.cluster import RedisCluster

    from infra.settings import RedisSettingsError
    from services.store.client import StoreClient, event_store_client, store_client

    cluster = "redis+cluster://10.0.0.1:7000,10.0.0.2:7000"
    monkeypatch.setenv("REDIS_URL", cluster)
    monkeypatch.delenv("DAEDALUS_REDIS_URL", raising=False)
    with pytest.raises(RedisSettingsError, match="set DAEDALUS_REDIS_URL"):
        Settings()  # Celery's broker would land on the cluster
    monkeypatch.setenv("DAEDALUS_REDIS_URL", "redis+cluster://10.0.0.3:7000")
    with pytest.raises(RedisSettingsError, match="must name one Redis"):
        Settings()
    monkeypatch.setenv("DAEDALUS_REDIS_URL", "redis://10.0.0.9:6379/0")
    settings = Settings()
    assert settings.event_store_url == cluster
    # Building a client connects to no one until the first command (none is sent here).
    monkeypatch.setattr(RedisCluster, "__init__", lambda self, **options: None)
    client = event_store_client(cluster)
    assert isinstance(client, RedisCluster)
    assert isinstance(event_store_client(settings.workers_redis_url), StoreClient)
    with pytest.raises(ValueError, match="not a Redis Cluster"):
        store_client(cluster)
    monkeypatch.setenv("REDIS_URL", "redis+cluster://10.0.0.1")
    with pytest.raises(RedisSettingsError, match="host:port"):
        Settings()
