"""GraphQL refusals against a running server: codes, problem+json, and what gets logged.

The server is this module's own (not the session's), so its log can be read: a refused
request must leave no traceback and no part of a role token written in the query.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

from tests.e2e.conftest import serve

pytestmark = pytest.mark.e2e

PROBLEM = "application/problem+json"
PARTY = [{"id": "p1", "name": "Ash", "profile": {"system": "5e", "modifiers": {"STR": 4}}}]


class Server:
    def __init__(self, url: str, log: Path) -> None:
        self.url = url
        self.log = log

    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serve(tmp_path_factory.mktemp("graphql-errors"), {}) as (url, log):
        yield Server(url, log)


@pytest.fixture
def http(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=30.0) as client:
        yield client


def _post_raw(http: httpx.Client, body: str | bytes) -> httpx.Response:
    return http.post("/graphql", content=body, headers={"Content-Type": "application/json"})


def _errors(http: httpx.Client, query: str, **variables: Any) -> list[dict[str, Any]]:
    response = http.post("/graphql", json={"query": query, "variables": variables})
    assert response.status_code == 200, response.text
    errors: list[dict[str, Any]] = response.json()["errors"]
    return errors


def _problem(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM), response.headers
    body: dict[str, Any] = response.json()
    assert body["code"] == code and body["status"] == status, body
    assert body["type"] == f"urn:daedalus:problem:{code}" and body["title"] and body["detail"]
    return body


def _no_unhandled_errors(server: Server) -> None:
    bad = [line for line in server.lines() if line["level"] in ("error", "critical")]
    assert not bad, bad
    assert "RecursionError" not in server.log.read_text()


# --- deeply nested JSON -------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        "[" * 1000 + "]" * 1000,
        '{"query": "{ __typename }", "variables": {"v": ' + "[" * 1000 + "]" * 1000 + "}}",
        '{"query": "{ __typename }", "variables": {"v": ' + "[" * 100 + "]" * 100 + "}}",
    ],
    ids=["bare", "in-variables", "past-the-limit"],
)
def test_deeply_nested_json_is_a_400_not_a_500(
    server: Server, http: httpx.Client, body: str
) -> None:
    problem = _problem(_post_raw(http, body), 400, "invalid_json")
    assert "nests deeper than" in problem["detail"]
    _no_unhandled_errors(server)


HUGE = "9" * 5000  # past Python's 4300-digit int conversion limit


def test_a_number_with_too_many_digits_is_a_400_not_a_500(
    server: Server, http: httpx.Client
) -> None:
    body = '{"query": "query($s: Long) { __typename }", "variables": {"s": ' + HUGE + "}}"
    problem = _problem(_post_raw(http, body), 400, "invalid_json")
    assert "too many digits" in problem["detail"]
    _no_unhandled_errors(server)


def test_a_number_with_too_many_digits_closes_the_socket_with_4400(server: Server) -> None:
    with _ws(server) as ws:
        ws.send('{"type": "connection_init"}')
        assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
        payload = '{"query": "query($s: Long) { __typename }", "variables": {"s": ' + HUGE + "}}"
        ws.send('{"id": "1", "type": "subscribe", "payload": ' + payload + "}")
        assert _closed_with(ws) == 4400
    _no_unhandled_errors(server)


def test_a_message_over_the_body_limit_closes_the_socket_with_1009(server: Server) -> None:
    with _ws(server) as ws:
        ws.send('{"type": "connection_init"}')
        assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
        definition = '{"name": "' + "x" * (2 << 20) + '"}'  # 2 MiB, the limit is 1 MiB
        payload = '{"query": "{ __typename }", "variables": {"d": ' + definition + "}}"
        ws.send('{"id": "1", "type": "subscribe", "payload": ' + payload + "}")
        assert _closed_with(ws) == 1009
    _no_unhandled_errors(server)


def test_json_nested_a_few_levels_is_fine(http: httpx.Client) -> None:
    # A maze definition is the free-form JSON argument (sendCommand's command is typed).
    variables = {"v": {"name": "Deep", "deep": json.loads("[" * 20 + "]" * 20)}}
    query = """mutation($v: JSON) { createSession(party: [{id: "a", name: "A"}],
        definition: $v) { __typename } }"""
    response = http.post("/graphql", json={"query": query, "variables": variables})
    assert response.json() == {"data": {"createSession": {"__typename": "Problem"}}}


def _ws(server: Server) -> ClientConnection:
    url = server.url.replace("http", "ws", 1) + "/graphql"
    return connect(url, subprotocols=[Subprotocol("graphql-transport-ws")], open_timeout=10)


def _closed_with(ws: ClientConnection) -> int | None:
    with pytest.raises(ConnectionClosed):
        while True:
            ws.recv(timeout=10)
    return ws.close_code


DEEP = "[" * 5000 + "]" * 5000


def test_a_deeply_nested_connection_init_closes_the_socket_with_4400(server: Server) -> None:
    with _ws(server) as ws:
        ws.send('{"type": "connection_init", "payload": ' + DEEP + "}")
        assert _closed_with(ws) == 4400
    _no_unhandled_errors(server)


def test_a_deeply_nested_subscribe_closes_the_socket_with_4400(server: Server) -> None:
    with _ws(server) as ws:
        ws.send('{"type": "connection_init"}')
        assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
        payload = '{"query": "subscription { x }", "variables": {"v": ' + DEEP + "}}"
        ws.send('{"id": "1", "type": "subscribe", "payload": ' + payload + "}")
        assert _closed_with(ws) == 4400
    _no_unhandled_errors(server)


@pytest.mark.parametrize(
    "message",
    [
        5,
        [],
        "connection_init",
        {"type": ["connection_init"]},
        {"id": "1", "type": "subscribe", "payload": 5},
        {"id": ["1"], "type": "subscribe", "payload": {"query": "{ __typename }"}},
        {"id": "1", "type": "subscribe", "payload": {"query": 5}},
        {"id": "1", "type": "subscribe", "payload": {"query": "{ x }", "variables": 5}},
        {"id": "1", "type": "subscribe", "payload": {"query": "{ x }", "operationName": 5}},
        {"id": {}, "type": "complete"},
    ],
)
def test_a_message_of_the_wrong_shape_closes_the_socket_with_4400(
    server: Server, message: object
) -> None:
    with _ws(server) as ws:
        ws.send('{"type": "connection_init"}')
        assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
        ws.send(json.dumps(message))
        assert _closed_with(ws) == 4400
    _no_unhandled_errors(server)


def test_a_subscription_that_does_not_parse_closes_with_4400_and_logs_nothing(
    server: Server,
) -> None:
    token = "v1." + "p" * 40 + "." + "m" * 40  # shaped like a role token
    query = f'subscription {{ sessionEvents(id: "{"s" * 60}", token: "{token}" {{ x }}'
    with _ws(server) as ws:
        ws.send('{"type": "connection_init"}')
        assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
        ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": query}}))
        assert _closed_with(ws) == 4400
    assert "p" * 10 not in server.log.read_text()
    _no_unhandled_errors(server)


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ({"query": "query A { a: __typename } query B { b: __typename }"}, "operationName"),
        ({"query": "query A { a: __typename }", "operationName": "Nope"}, "Nope"),
    ],
    ids=["several-unnamed", "unknown-name"],
)
def test_an_operation_that_cannot_be_picked_closes_the_socket_with_4400(
    server: Server, payload: dict[str, str], reason: str
) -> None:
    with _ws(server) as ws:
        ws.send('{"type": "connection_init"}')
        assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
        ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        assert _closed_with(ws) == 4400
        assert ws.close_reason is not None and reason in ws.close_reason, ws.close_reason
    _no_unhandled_errors(server)


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        ({"query": "query A { a: __typename } query B { b: __typename }"}, "unknown_operation"),
        ({"query": "query A { a: __typename }", "operationName": "Nope"}, "unknown_operation"),
        ({"query": "{ __typename }"}, "operation_not_allowed"),  # it runs subscriptions only
    ],
    ids=["several-unnamed", "unknown-name", "a-query"],
)
def test_the_legacy_protocol_answers_what_it_cannot_run_with_a_code(
    server: Server, payload: dict[str, str], code: str
) -> None:
    url = server.url.replace("http", "ws", 1) + "/graphql"
    with connect(url, subprotocols=[Subprotocol("graphql-ws")], open_timeout=10) as ws:
        ws.send('{"type": "connection_init"}')
        assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
        ws.send(json.dumps({"id": "1", "type": "start", "payload": payload}))
        answer = json.loads(ws.recv(timeout=10))
    assert answer["type"] == "error" and answer["id"] == "1", answer
    assert answer["payload"]["extensions"]["code"] == code, answer
    assert answer["payload"]["message"] != "Internal error.", answer
    _no_unhandled_errors(server)


# --- bodies that are not a GraphQL request: problem+json -----------------------------


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("not json", "invalid_json"),
        (b"\xff\xfe{", "invalid_json"),
        ("{}", "missing_query"),
        ('{"query": null}', "missing_query"),
        ("[]", "batching_disabled"),
        ('[{"query": "{ __typename }"}]', "batching_disabled"),
        ('{"query": 5}', "invalid_request"),
        ('{"query": "{ __typename }", "variables": 5}', "invalid_request"),
        ("5", "invalid_request"),
        ("null", "invalid_request"),
        ('{"query": "{ __typename }", "operationName": "Nope"}', "unknown_operation"),
    ],
)
def test_a_body_that_is_not_a_graphql_request_is_a_problem(
    server: Server, http: httpx.Client, body: str | bytes, code: str
) -> None:
    _problem(_post_raw(http, body), 400, code)
    _no_unhandled_errors(server)


def test_a_document_of_several_operations_runs_only_the_one_named(http: httpx.Client) -> None:
    """GraphQL's GetOperation: without `operationName`, only a document's one operation
    runs. Strawberry ran the first of several, here a mutation the client never named."""
    two = "mutation M { createCommitment(ttlSeconds: 60) { __typename } } query Q { __typename }"
    refused = http.post("/graphql", json={"query": two})
    _problem(refused, 400, "unknown_operation")
    assert "operationName" in refused.json()["detail"], refused.text
    named = http.post("/graphql", json={"query": two, "operationName": "Q"})
    assert named.json() == {"data": {"__typename": "Query"}}, named.text
    over_get = http.get(
        "/graphql", params={"query": "query A { a: __typename } query B { b: __typename }"}
    )
    _problem(over_get, 400, "unknown_operation")
    one = http.post("/graphql", json={"query": "query Only { __typename }"})
    assert one.json() == {"data": {"__typename": "Query"}}, one.text


def test_other_refusals_before_graphql_runs_are_problems_too(http: httpx.Client) -> None:
    plain = http.post("/graphql", content="{}", headers={"Content-Type": "text/plain"})
    _problem(plain, 400, "unsupported_media_type")
    mutation = "mutation { createCommitment(ttlSeconds: 60) { __typename } }"
    _problem(http.get("/graphql", params={"query": mutation}), 400, "operation_not_allowed")
    bad_variables = {"query": "{ __typename }", "variables": "{nope"}
    _problem(http.get("/graphql", params=bad_variables), 400, "invalid_json")


def test_graphql_over_http_still_works(http: httpx.Client) -> None:
    query = 'query($e: String = "1d6") { roll(expression: $e, seed: "s") { __typename } }'
    for variables in ("null", '{"e": "2d6"}'):
        got = http.get("/graphql", params={"query": query, "variables": variables})
        assert got.json() == {"data": {"roll": {"__typename": "RollResult"}}}, got.text
    posted = http.post(
        "/graphql",
        content='{"query": "{ __typename }"}',
        headers={"Content-Type": "application/json; charset=utf-8"},
    )
    assert posted.json() == {"data": {"__typename": "Query"}}
    ide = http.get("/graphql", headers={"Accept": "text/html"})  # GraphiQL, in development
    assert ide.status_code == 200 and ide.headers["content-type"].startswith("text/html")


# --- GraphQL errors: a stable extensions.code ----------------------------------------

LONG_QUERY = "{ " + " ".join(f"a{i}: __typename" for i in range(700)) + " }"
ALIASES = "{ " + " ".join(f'r{i}: roll(expression: "1") {{ __typename }}' for i in range(9)) + " }"
DEEP_QUERY = "{" + " a {" * 12 + " b" + " }" * 12 + " }"  # unknown fields, and too deep


@pytest.mark.parametrize(
    ("query", "variables", "code"),
    [
        ("{ roll(", {}, "graphql_parse_failed"),
        ("{ nope }", {}, "graphql_validation_failed"),
        ('{ roll(expression: "1", nope: 1) { __typename } }', {}, "graphql_validation_failed"),
        ("{ roll(expression: 1) { __typename } }", {}, "invalid_argument"),
        ("{ roll { __typename } }", {}, "invalid_argument"),
        (
            'query { verifyRoll(expression: "1d20", serverSeed: "s", clientSeed: "c",'
            " nonce: 99999999999999999999999) { __typename } }",
            {},
            "invalid_argument",
        ),
        (
            "query($e: String!) { roll(expression: $e) { __typename } }",
            {"e": 5},
            "invalid_argument",
        ),
        ("query($e: String!) { roll(expression: $e) { __typename } }", {}, "invalid_argument"),
        (LONG_QUERY, {}, "query_too_complex"),
        (ALIASES, {}, "query_too_complex"),
        (DEEP_QUERY, {}, "query_too_complex"),
    ],
    ids=[
        "syntax",
        "unknown-field",
        "unknown-argument",
        "literal-of-wrong-type",
        "missing-argument",
        "long-out-of-range",
        "variable-of-wrong-type",
        "missing-variable",
        "tokens",
        "aliases",
        "depth",
    ],
)
def test_every_graphql_error_carries_a_stable_code(
    server: Server, http: httpx.Client, query: str, variables: dict[str, Any], code: str
) -> None:
    errors = _errors(http, query, **variables)
    codes = [e.get("extensions", {}).get("code") for e in errors]
    assert code in codes and None not in codes, errors
    assert all(e["message"] != "Internal error." for e in errors), errors
    _no_unhandled_errors(server)


# --- logs: a refused query's role token never reaches them ---------------------------


def test_a_refused_query_logs_no_part_of_the_token_in_it(
    server: Server, http: httpx.Client
) -> None:
    created = http.post("/v1/sessions", json={"preset": "standard_deck", "party": PARTY})
    assert created.status_code == 201, created.text
    session_id, token = created.json()["session_id"], created.json()["gm_token"]
    # The id pads the line so that the token crosses column 80, where graphql-core wraps
    # a long query line when it prints the error's location.
    padded_id = session_id.ljust(40, " ")
    queries = [
        f'{{ session(id: "{padded_id}", token: "{token}") {{ total }} }}',
        f'{{ session(id: "{session_id}", token: "{token}", asGm: 5) {{ __typename }} }}',
        f'{{ session(id: "{session_id}", token: "{token}") ',
    ]
    for query in queries:
        response = http.post("/graphql", json={"query": query})
        assert response.status_code == 200 and response.json()["errors"], response.text
    logged = server.log.read_text()
    parts = token.split(".")[1:]  # v1.<payload>.<mac>
    pieces = {part[i : i + 10] for part in parts for i in range(len(part) - 9)}
    assert not [piece for piece in pieces if piece in logged]
    _no_unhandled_errors(server)  # a caller's error is not the server's
