"""The embedded Redis starts from a relative data folder, as `make run`'s `./data` is."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.store import start_embedded


def test_a_relative_data_folder_holds_the_server_s_data_and_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    connection = start_embedded(Path("data"))
    try:
        connection.client.set("probe", "1")
        assert connection.client.get("probe") == b"1"
    finally:
        connection.close()
    assert (tmp_path / "data" / "redis" / "redis.log").stat().st_size > 0
    assert (tmp_path / "data" / "redis" / "appendonly.aof").exists()
