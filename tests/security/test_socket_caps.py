"""Subscriptions are bounded: operations per socket and sockets per caller.

Against a real server with small caps (3 operations, 2 sockets): the fourth live
subscription on a socket is answered `too_many_operations` while the three stay live,
a third socket of the same caller is closed with 4429 `too_many_sockets`, and a socket
that closes gives its place back. /healthz keeps answering fast throughout.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

from tests.e2e.conftest import serve
from tests.security.probes import probing

pytestmark = [pytest.mark.e2e]

FOLLOW = """subscription($id: ID!, $t: String) {
  sessionEvents(id: $id, token: $t, after: 0) { __typename } }"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    env = {"DAEDALUS_WS_MAX_OPERATIONS": "3", "DAEDALUS_WS_MAX_SOCKETS": "2"}
    with serve(tmp_path_factory.mktemp("caps"), env) as (url, _log):
        yield url


def _socket(url: str) -> ClientConnection:
    ws = connect(
        url.replace("http", "ws", 1) + "/graphql",
        subprotocols=[Subprotocol("graphql-transport-ws")],
        open_timeout=10,
    )
    ws.send(json.dumps({"type": "connection_init"}))
    return ws


def _next(ws: ClientConnection) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return found


def test_operations_per_socket_and_sockets_per_caller_are_capped(server: str) -> None:
    party = [{"id": "p1", "name": "Ash"}]
    table = httpx.post(f"{server}/v1/sessions", json={"preset": "standard_deck", "party": party})
    assert table.status_code == 201, table.text
    variables = {"id": table.json()["session_id"], "t": table.json()["spectator_token"]}
    first, second = _socket(server), _socket(server)
    with probing(server) as probe:
        try:
            assert _next(first)["type"] == _next(second)["type"] == "connection_ack"
            for op in range(4):
                payload = {"query": FOLLOW, "variables": variables}
                first.send(json.dumps({"id": str(op), "type": "subscribe", "payload": payload}))
            answers: list[dict[str, Any]] = []
            live: set[str] = set()
            while len(live) < 3 or not any(a["type"] == "error" for a in answers):
                answers.append(_next(first))  # each live one sends its catch-up events
                if answers[-1]["type"] == "next":
                    live.add(answers[-1]["id"])
            refused = [a for a in answers if a["type"] == "error"]
            assert [a["id"] for a in refused] == ["3"]
            assert refused[0]["payload"][0]["extensions"]["code"] == "too_many_operations"
            assert live == {"0", "1", "2"}
            third = _socket(server)
            with pytest.raises(ConnectionClosed):
                while True:
                    third.recv(timeout=10)
            print(f"\nthird socket closed: {third.close_code} {third.close_reason}")
            assert (third.close_code, third.close_reason) == (4429, "too_many_sockets")
        finally:
            first.close()
            second.close()
    probe.check()
    # A closed socket gives its place back.
    deadline = time.monotonic() + 10
    while True:
        again = _socket(server)
        try:
            if _next(again)["type"] == "connection_ack":
                break
        except ConnectionClosed:
            assert time.monotonic() < deadline, "a closed socket's place was not given back"
            time.sleep(0.1)
        finally:
            again.close()
