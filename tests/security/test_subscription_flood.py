"""A subscription flood is bounded, and the service stays responsive while it runs.

The attack (issue 16): 5 sockets each asking for 101 `sessionEvents(after: 0)`
subscriptions on a session of about 300 events, so that every one replays the whole
history at once. Against a real server with the shipped caps: each socket keeps at most
`DAEDALUS_WS_MAX_OPERATIONS` of them (the rest are answered `too_many_operations`), each
live one gets its full catch-up in order, and a `/healthz` probe beside the flood stays
fast. A 10 MB WebSocket message is refused like a 10 MB body (close 1009) without being
processed. The figures are printed.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

from api.keys import config_entry, new_key
from api.tables.kind import PAGE, PAGE_PRICE
from tests.e2e.conftest import serve
from tests.security.probes import probing

pytestmark = [pytest.mark.e2e]

SOCKETS = 5
ASKED = 101  # subscriptions asked per socket
ROLLS = 300
FOLLOW = """subscription($id: ID!, $t: String) {
  sessionEvents(id: $id, token: $t, after: 0) {
    __typename ... on SessionEvent { version type } ... on Problem { code } } }"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("flood"), {}) as (url, _log):
        yield url


def _socket(url: str, key: str | None = None) -> ClientConnection:
    ws = connect(
        url.replace("http", "ws", 1) + "/graphql",
        subprotocols=[Subprotocol("graphql-transport-ws")],
        open_timeout=10,
        max_size=None,
    )
    init = {"payload": {"api_key": key}} if key else {}
    ws.send(json.dumps({"type": "connection_init", **init}))
    assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
    return ws


def _long_session(url: str, headers: dict[str, str] | None = None) -> tuple[str, str, int]:
    """A session with ROLLS rolls in its history: its id, a spectator token, its version."""
    party = [{"id": "p1", "name": "Ash"}, {"id": "p2", "name": "Bryn"}]
    with httpx.Client(base_url=url, timeout=30, headers=headers) as client:
        created = client.post("/v1/sessions", json={"preset": "standard_deck", "party": party})
        assert created.status_code == 201, created.text
        table = created.json()
        gm = {**(headers or {}), "Authorization": f"Bearer {table['gm_token']}"}
        commands = f"/v1/sessions/{table['session_id']}/commands"
        for _ in range(ROLLS):
            roll = {"type": "RollDice", "expression": "3d6", "label": "flood"}
            sent = client.post(commands, json=roll, headers=gm)
            assert sent.status_code == 200, sent.text
        version = int(sent.json()["version"])
    return str(table["session_id"]), str(table["spectator_token"]), version


def test_a_flood_of_catch_ups_is_capped_and_served_while_healthz_stays_fast(server: str) -> None:
    session, token, version = _long_session(server)
    sockets = [_socket(server) for _ in range(SOCKETS)]
    payload = {"query": FOLLOW, "variables": {"id": session, "t": token}}
    got: list[Counter[str]] = [Counter() for _ in sockets]
    refused: list[Counter[str]] = [Counter() for _ in sockets]
    try:
        with probing(server) as probe:
            started = time.perf_counter()
            for ws in sockets:
                for op in range(ASKED):
                    ws.send(json.dumps({"id": str(op), "type": "subscribe", "payload": payload}))
            for n, ws in enumerate(sockets):
                while (
                    sum(refused[n].values()) < ASKED - len(got[n])
                    or any(count < version for count in got[n].values())
                    or not got[n]
                ):
                    message: dict[str, Any] = json.loads(ws.recv(timeout=30))
                    if message["type"] == "next":
                        event = message["payload"]["data"]["sessionEvents"]
                        assert event["version"] == got[n][message["id"]] + 1  # in order
                        got[n][message["id"]] += 1
                    else:
                        assert message["type"] == "error", message
                        code = message["payload"][0]["extensions"]["code"]
                        refused[n][code] += 1
            took = time.perf_counter() - started
        live = sum(len(g) for g in got)
        delivered = sum(sum(g.values()) for g in got)
        print(
            f"\n{SOCKETS} sockets x {ASKED} sessionEvents(after: 0) on a {version}-event "
            f"session: {live} live, {sum(sum(r.values()) for r in refused)} refused "
            f"({sum(refused, Counter())}), {delivered} events delivered in {took:.2f} s"
        )
        probe.check()
        for g, r in zip(got, refused, strict=True):
            assert len(g) == 16 and set(r) == {"too_many_operations"}
            assert all(count == version for count in g.values())
    finally:
        for ws in sockets:
            ws.close()


def test_a_message_over_the_body_limit_is_refused_unread(server: str) -> None:
    huge = "x" * (10 * 1024 * 1024)
    query = "query($d: JSON!) { validateLabyrinthDefinition(definition: $d) { __typename } }"
    message = {"query": query, "variables": {"d": {"name": huge}}}
    closed: list[int | None] = []
    with probing(server) as probe:
        started = time.perf_counter()
        for _ in range(5):
            ws = _socket(server)
            try:
                ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": message}))
                with pytest.raises(ConnectionClosed):
                    while True:
                        ws.recv(timeout=10)
                closed.append(ws.close_code)
            finally:
                ws.close()
        took = time.perf_counter() - started
    print(f"\n5 messages of 10 MB: closed {closed} in {took * 1000:.0f} ms")
    probe.check()
    assert closed == [1009] * 5


@dataclass(frozen=True)
class Keyed:
    url: str
    builder: str  # builds the long session, from its own bucket
    watcher: str  # follows it


@pytest.fixture(scope="module")
def keyed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Keyed]:
    builder, watcher = new_key(), new_key()
    keys = {**config_entry(builder, "gm", "acme"), **config_entry(watcher, "vtt", "acme")}
    env = {
        "DAEDALUS_ENV": "production",
        "DAEDALUS_SECRET_KEY": "catch-up-price-" + "x" * 24,
        "DAEDALUS_API_KEYS": json.dumps(keys),
        "DAEDALUS_RATE_LIMIT_RPS": "0.001",  # no refill to speak of during the test
        "DAEDALUS_RATE_LIMIT_BURST": "1000",
    }
    with serve(tmp_path_factory.mktemp("catch-up-price"), env) as (url, _log):
        yield Keyed(url, builder, watcher)


def _remaining(url: str, key: str) -> int:
    """The caller's tokens left, read from a cheap request (which takes one)."""
    answer = httpx.get(f"{url}/v1/labyrinths/presets", headers={"X-API-Key": key})
    assert answer.status_code == 200, answer.text
    return int(answer.headers["RateLimit-Remaining"])


def test_a_catch_up_is_priced_by_its_pages(keyed: Keyed) -> None:
    session, token, version = _long_session(keyed.url, {"X-API-Key": keyed.builder})
    before = _remaining(keyed.url, keyed.watcher)
    ws = _socket(keyed.url, keyed.watcher)
    try:
        payload = {"query": FOLLOW, "variables": {"id": session, "t": token}}
        ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        versions = [
            json.loads(ws.recv(timeout=30))["payload"]["data"]["sessionEvents"]["version"]
            for _ in range(version)
        ]
    finally:
        ws.close()
    assert versions == list(range(1, version + 1))
    spent = before - _remaining(keyed.url, keyed.watcher) - 1  # less the reading request
    pages = -(-version // PAGE)
    print(f"\na {version}-event catch-up ({pages} pages of {PAGE}): {spent} tokens")
    assert spent == 1 + (pages - 1) * PAGE_PRICE
