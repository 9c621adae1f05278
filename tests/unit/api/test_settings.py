"""Settings: read from the environment, unsafe production settings refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from api.settings import DEV_SECRET_KEY, Settings, UnsafeSettingsError


def test_the_defaults_serve_locally(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HOST", "PORT", "DAEDALUS_DATA_DIR", "DAEDALUS_SECRET_KEY", "DAEDALUS_ENV"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings()
    assert (settings.host, settings.port) == ("127.0.0.1", 8000)
    assert settings.data_dir == Path("data")
    assert settings.secret_key.get_secret_value() == DEV_SECRET_KEY


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


def test_the_secret_never_shows_in_repr() -> None:
    assert DEV_SECRET_KEY not in repr(Settings())
