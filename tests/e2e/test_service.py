"""The running service: alive, ready once its event store answers, data on disk."""

from __future__ import annotations

import httpx


def test_the_service_is_ready_once_its_event_store_answers(client: httpx.Client) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.json() == {"status": "ready"}
