"""No way in without a key, and no input that turns into a server error.

Against a real production server (keys required, rate limit on), each attack of issue 16
is replayed while `/healthz` is probed beside it:
- a WebSocket with no key (no header, nothing in `connection_init`) asked for rolls,
  odds, a commitment and the presets: closed with 4401 `missing_api_key` before any;
- a keyed socket sending operations past the rate limit: each one spends a token, and
  the ones past the bucket are answered `rate_limited`;
- a GraphQL document of 8 aliased rolls: it pays for 8, and a document the bucket cannot
  pay runs none of its fields;
- `verify` with a non-ASCII hash (a 500 once) over REST and GraphQL: 422/Problem;
- a GraphQL variable holding a 5000-digit integer (a 500, or a dropped socket, once):
  400 `invalid_json` over HTTP, close 4400 over WebSocket.
The figures are printed.
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

from api.keys import config_entry, new_key
from tests.e2e.conftest import serve
from tests.security.probes import probing

pytestmark = [pytest.mark.e2e]

BURST = 20
ATTEMPTS = [
    '{ roll(expression: "1d20") { __typename } }',
    '{ probability(expression: "20d10000") { __typename } }',
    "mutation { createCommitment { __typename } }",
    "{ labyrinthPresets { name } }",
]
HUGE = "9" * 5000  # past Python's 4300-digit int conversion limit


@dataclass(frozen=True)
class Server:
    url: str
    key: str
    fresh: str  # a second key, with its own bucket
    third: str  # and a third


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    key, fresh, third = new_key(), new_key(), new_key()
    keys = {
        **config_entry(key, "gm-tools", "acme"),
        **config_entry(fresh, "vtt", "acme"),
        **config_entry(third, "mobile", "acme"),
    }
    env = {
        "DAEDALUS_ENV": "production",
        "DAEDALUS_SECRET_KEY": "keys-and-errors-" + "x" * 24,
        "DAEDALUS_API_KEYS": json.dumps(keys),
        "DAEDALUS_RATE_LIMIT_RPS": "0.01",  # no refill to speak of during a test
        "DAEDALUS_RATE_LIMIT_BURST": str(BURST),
    }
    with serve(tmp_path_factory.mktemp("keys-errors"), env) as (url, _log):
        yield Server(url, key, fresh, third)


def _socket(server: Server, init: dict[str, object] | None = None) -> ClientConnection:
    ws = connect(
        server.url.replace("http", "ws", 1) + "/graphql",
        subprotocols=[Subprotocol("graphql-transport-ws")],
        open_timeout=10,
    )
    ws.send(json.dumps({"type": "connection_init", **({"payload": init} if init else {})}))
    return ws


def _closed(ws: ClientConnection) -> tuple[int | None, str | None]:
    with pytest.raises(ConnectionClosed):
        while True:
            ws.recv(timeout=10)
    return ws.close_code, ws.close_reason


def test_a_keyless_socket_gets_nothing(server: Server) -> None:
    closes: Counter[tuple[int | None, str | None]] = Counter()
    answers: list[object] = []
    with probing(server.url) as probe:
        for _ in range(10):
            ws = _socket(server)
            try:
                with contextlib.suppress(ConnectionClosed):  # it may close before they all go
                    for n, query in enumerate(ATTEMPTS):
                        message = {"id": str(n), "type": "subscribe", "payload": {"query": query}}
                        ws.send(json.dumps(message))
                    while True:
                        answers.append(json.loads(ws.recv(timeout=10)))
                closes[(ws.close_code, ws.close_reason)] += 1
            finally:
                ws.close()
    print(f"\n10 keyless sockets asking {len(ATTEMPTS)} operations each: closed {dict(closes)}")
    probe.check()
    assert answers == []  # not even an acknowledgement
    assert closes == {(4401, "missing_api_key"): 10}


def test_a_keyed_socket_spends_the_rate_limit_on_each_operation(server: Server) -> None:
    ws = _socket(server, {"api_key": server.key})
    codes: Counter[str] = Counter()
    try:
        assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
        with probing(server.url) as probe:
            for n in range(3 * BURST):
                query = '{ roll(expression: "1d20") { __typename } }'
                ws.send(
                    json.dumps({"id": str(n), "type": "subscribe", "payload": {"query": query}})
                )
            answered = 0
            while answered < 3 * BURST:
                message = json.loads(ws.recv(timeout=10))
                if message["type"] == "next":
                    codes["answered"] += 1
                elif message["type"] == "error":
                    codes[message["payload"][0]["extensions"]["code"]] += 1
                answered += message["type"] in ("next", "error")
    finally:
        ws.close()
    print(f"\n{3 * BURST} rolls on one keyed socket (burst {BURST}): {dict(codes)}")
    probe.check()
    assert set(codes) == {"answered", "rate_limited"}
    assert codes["answered"] == BURST


def test_inputs_that_were_server_errors_are_clear_refusals(server: Server) -> None:
    headers = {"X-API-Key": server.fresh}
    verify = {"expression": "1d6", "server_seed": "a", "client_seed": "b", "hash": "é" * 64}
    query = """query($h: String!) { verifyRoll(expression: "1d6", serverSeed: "a",
        clientSeed: "b", nonce: 0, hash: $h) { __typename ... on Problem { code } } }"""
    raw = '{"query": "query($s: Long) { __typename }", "variables": {"s": ' + HUGE + "}}"
    with probing(server.url) as probe, httpx.Client(base_url=server.url, headers=headers) as http:
        rest = http.post("/v1/dice/verify", json=verify)
        graphql = http.post("/graphql", json={"query": query, "variables": {"h": "é" * 64}})
        digits = http.post("/graphql", content=raw, headers={"content-type": "application/json"})
        ws = _socket(server, {"api_key": server.fresh})
        try:
            assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
            ws.send('{"id": "1", "type": "subscribe", "payload": ' + raw[:-1] + "}}")
            socket_close = _closed(ws)
        finally:
            ws.close()
    seen = {
        "REST verify, non-ASCII hash": (rest.status_code, rest.json()["code"]),
        "GraphQL verifyRoll, non-ASCII hash": graphql.json()["data"]["verifyRoll"]["code"],
        "5000-digit variable over HTTP": (digits.status_code, digits.json()["code"]),
        "5000-digit variable over WebSocket": socket_close[0],
    }
    print("\n" + "\n".join(f"{what}: {answer}" for what, answer in seen.items()))
    probe.check()
    assert seen == {
        "REST verify, non-ASCII hash": (422, "invalid_request"),
        "GraphQL verifyRoll, non-ASCII hash": "invalid_request",
        "5000-digit variable over HTTP": (400, "invalid_json"),
        "5000-digit variable over WebSocket": 4400,
    }


def test_a_document_pays_for_each_aliased_field(server: Server) -> None:
    rolls = " ".join(f'r{i}: roll(expression: "1d20") {{ __typename }}' for i in range(8))
    headers = {"X-API-Key": server.third}
    answers = []
    with probing(server.url) as probe, httpx.Client(base_url=server.url, headers=headers) as http:
        for _ in range(3):
            answer = http.post("/graphql", json={"query": "{ " + rolls + " }"})
            answers.append((answer.json(), int(answer.headers["RateLimit-Remaining"])))
    (first, left1), (second, left2), (third, left3) = answers
    print(
        f"\n3 documents of 8 aliased rolls (burst {BURST}): tokens left at each door "
        f"{left1}, {left2}, {left3}; the third: {third['errors'][0]['extensions']}"
    )
    probe.check()
    assert len(first["data"]) == len(second["data"]) == 8
    # The door takes one (its header says what is left then), the document 7 more.
    assert (left1, left2, left3) == (BURST - 1, BURST - 9, BURST - 17)
    assert third["data"] is None
    assert third["errors"][0]["extensions"]["code"] == "rate_limited"
    assert third["errors"][0]["extensions"]["retryAfter"] >= 1
