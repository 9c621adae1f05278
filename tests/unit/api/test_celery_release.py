"""An app that sent simulation jobs leaves no Celery connection or subscription behind.

The flake this guards against: a result backend left by one test reconnected to its
stopped Redis while a later test ran, logging 20 "Connection to Redis lost" errors and a
CRITICAL into that test's captured logs (and, in `make run`, into every stop).
"""

from __future__ import annotations

import gc
import logging
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from api.app import create_app
from infra.settings import Settings
from workers.app import app as celery_app

SIMULATION = {"preset": "enchanted_forest_v1", "games": 4_000, "chart": {"games": 500}}


def test_a_stopped_app_leaves_nothing_that_reconnects_to_its_redis(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(
        Settings.model_validate({"environment": "test", "DAEDALUS_DATA_DIR": tmp_path})
    )
    with TestClient(app) as http:
        created = http.post("/v1/simulations", json=SIMULATION)
        assert created.status_code == 202, created.text
        backend = celery_app.backend
        # Sending a chord subscribes to its shards' results; the API waits on none.
        assert not backend.result_consumer.subscribed_to
    # The app has stopped, and its embedded Redis with it. What the request left is
    # collected now, as the cycle collector would during some later test.
    with caplog.at_level(logging.WARNING):
        gc.collect()
    assert [r.getMessage() for r in caplog.records if r.name.startswith("celery")] == []
    assert celery_app.backend is not backend  # released: the next app builds its own
