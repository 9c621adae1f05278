"""The platform around the API, against a production-mode server with configured keys.

API keys pick a client app and tenant; tenants never see each other's sessions (REST,
GraphQL or subscriptions); rate limits answer with RateLimit headers and 429; /metrics;
JSON logs with request ids and no keys or tokens; introspection and GraphiQL off.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect
from websockets.typing import Subprotocol

from api.keys import config_entry, new_key
from tests.e2e.conftest import serve

PARTY = [{"id": "p1", "name": "Ash"}, {"id": "p2", "name": "Bryn"}]
BURST = 30


@dataclass(frozen=True)
class Production:
    """The production server: its URL, its log file and a key per purpose."""

    url: str
    log: Path
    keys: dict[str, str]

    def client(self, key: str | None) -> httpx.Client:
        headers = {"X-API-Key": self.keys[key]} if key else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=30.0)


@pytest.fixture(scope="module")
def prod(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Production]:
    """`python -m api` with DAEDALUS_ENV=production, three keys in two tenants."""
    keys = {"acme": new_key(), "globex": new_key(), "limited": new_key()}
    config: dict[str, Any] = {}
    tenants = {"acme": "acme", "globex": "globex", "limited": "acme"}
    for name, key in keys.items():
        config.update(config_entry(key, f"{name}-app", tenants[name]))
    root = tmp_path_factory.mktemp("daedalus-prod")
    (root / "data").mkdir()
    (root / "data" / "keys.json").write_text(json.dumps(config))
    env = {
        "DAEDALUS_ENV": "production",
        "DAEDALUS_SECRET_KEY": "e2e-production-secret-" + "x" * 20,
        "DAEDALUS_API_KEYS": "keys.json",  # relative to the data folder
        "DAEDALUS_RATE_LIMIT_RPS": "2",
        "DAEDALUS_RATE_LIMIT_BURST": str(BURST),
    }
    with serve(root, env) as (url, log):
        yield Production(url, log, keys)


def create_session(http: httpx.Client) -> dict[str, Any]:
    response = http.post("/v1/sessions", json={"preset": "standard_deck", "party": PARTY})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def test_production_requires_a_known_api_key(prod: Production) -> None:
    with prod.client(None) as http:
        missing = http.post("/v1/dice/roll", json={"expression": "1d6"})
        wrong = http.post(
            "/v1/dice/roll", json={"expression": "1d6"}, headers={"X-API-Key": "dk_" + "a" * 43}
        )
        gql = http.post("/graphql", json={"query": "{ __typename }"})
        assert http.get("/healthz").status_code == 200  # probes need no key
    assert (missing.status_code, missing.json()["code"]) == (401, "missing_api_key")
    assert (wrong.status_code, wrong.json()["code"]) == (401, "invalid_api_key")
    assert missing.headers["content-type"] == "application/problem+json"
    assert gql.status_code == 401
    with prod.client("acme") as http:
        assert http.post("/v1/dice/roll", json={"expression": "1d6"}).status_code == 200


def test_a_tenant_never_sees_another_tenants_sessions(prod: Production) -> None:
    with prod.client("acme") as acme, prod.client("globex") as globex:
        created = create_session(acme)
        sid, gm = created["session_id"], created["gm_token"]
        bearer = {"Authorization": f"Bearer {gm}"}
        assert acme.get(f"/v1/sessions/{sid}", headers=bearer).status_code == 200
        for path in ("", "/events"):
            refused = globex.get(f"/v1/sessions/{sid}{path}", headers=bearer)
            assert (refused.status_code, refused.json()["code"]) == (404, "session_not_found")
        issued = globex.post(
            f"/v1/sessions/{sid}/tokens", json={"role": "spectator"}, headers=bearer
        )
        assert issued.status_code == 404
        query = "query($id: ID!, $t: String!) { session(id: $id, token: $t) { __typename "
        query += "... on Problem { code } } }"
        answer = globex.post("/graphql", json={"query": query, "variables": {"id": sid, "t": gm}})
        assert answer.json()["data"]["session"] == {
            "__typename": "Problem",
            "code": "session_not_found",
        }
        # Same tenant, another app: sees it.
    with prod.client("limited") as other_app_same_tenant:
        assert other_app_same_tenant.get(f"/v1/sessions/{sid}", headers=bearer).status_code == 200


def test_a_subscription_acts_for_the_key_in_its_connection_init(prod: Production) -> None:
    with prod.client("acme") as acme:
        created = create_session(acme)
    ws_url = prod.url.replace("http", "ws", 1) + "/graphql"
    query = """subscription($id: ID!) { sessionEvents(id: $id) {
      __typename ... on SessionEvent { version } ... on Problem { code } } }"""
    seen = {}
    for name in ("acme", "globex"):
        with connect(ws_url, subprotocols=[Subprotocol("graphql-transport-ws")]) as ws:
            init = {"token": created["gm_token"], "api_key": prod.keys[name]}
            ws.send(json.dumps({"type": "connection_init", "payload": init}))
            assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
            payload = {"query": query, "variables": {"id": created["session_id"]}}
            ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
            seen[name] = json.loads(ws.recv(timeout=10))["payload"]["data"]["sessionEvents"]
    assert seen["acme"] == {"__typename": "MazeStartedEvent", "version": 1}
    assert seen["globex"] == {"__typename": "Problem", "code": "session_not_found"}


def test_rate_limits_answer_with_headers_then_429(prod: Production) -> None:
    with httpx.Client(base_url=prod.url, timeout=30.0) as http:
        headers = {"X-API-Key": prod.keys["limited"]}
        answers = [
            http.post("/v1/dice/roll", json={"expression": "1d6"}, headers=headers)
            for _ in range(BURST + 10)
        ]
    first = answers[0]
    assert first.headers["RateLimit-Limit"] == str(BURST)
    assert int(first.headers["RateLimit-Remaining"]) >= BURST - 3
    assert int(first.headers["RateLimit-Reset"]) >= 0
    refused = [a for a in answers if a.status_code == 429]
    assert refused, [a.status_code for a in answers]
    problem = refused[0]
    assert problem.json()["code"] == "rate_limited"
    assert int(problem.headers["Retry-After"]) >= 1
    assert problem.headers["RateLimit-Remaining"] == "0"


def test_metrics_count_requests_events_and_rolls(prod: Production) -> None:
    with prod.client("acme") as http:
        created = create_session(http)
        bearer = {"Authorization": f"Bearer {created['spectator_token']}"}
        assert http.get(f"/v1/sessions/{created['session_id']}", headers=bearer).status_code == 200
        http.post("/v1/dice/roll", json={"expression": "2d6"})
        text = http.get("/metrics").text
    assert 'daedalus_http_requests_total{method="POST",route="/v1/sessions",status="201"}' in text
    assert "daedalus_http_request_duration_seconds_bucket" in text
    assert 'route="/v1/sessions/{session_id}"' in text  # templates, not raw paths
    assert 'daedalus_dice_rolls_total{api="rest"}' in text
    appended = [line for line in text.splitlines() if line.startswith("daedalus_events_appended")]
    assert appended and float(appended[0].split()[-1]) >= 2
    assert "daedalus_append_conflicts_total" in text


def test_introspection_and_graphiql_are_off_in_production(prod: Production) -> None:
    with prod.client("acme") as http:
        answer = http.post("/graphql", json={"query": "{ __schema { types { name } } }"})
        page = http.get("/graphql", headers={"Accept": "text/html"})
        plain = http.post("/graphql", json={"query": '{ roll(expression: "1d4") { __typename } }'})
    assert "errors" in answer.json() and "introspection" in answer.text.lower()
    assert "graphiql" not in page.text.lower()
    assert plain.json()["data"]["roll"]["__typename"] == "RollResult"


def test_logs_are_json_lines_with_request_ids_and_no_secrets(prod: Production) -> None:
    with prod.client("acme") as http:
        created = create_session(http)
        bearer = {"Authorization": f"Bearer {created['gm_token']}", "X-Request-ID": "trace-42"}
        answer = http.get(f"/v1/sessions/{created['session_id']}", headers=bearer)
        generated = http.post(
            "/v1/dice/roll", json={"expression": "1d6"}, headers={"X-Request-ID": "bad id!"}
        )
    assert answer.headers["X-Request-ID"] == "trace-42"
    assert (
        generated.headers["X-Request-ID"] != "bad id!"
        and len(generated.headers["X-Request-ID"]) == 32
    )
    deadline = time.monotonic() + 5
    while "trace-42" not in prod.log.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    text = prod.log.read_text()
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    access = [x for x in lines if x.get("request_id") == "trace-42"]
    assert access and access[0]["route"] == "/v1/sessions/{session_id}"
    assert {"timestamp", "level", "message", "method", "status", "duration_ms"} <= access[0].keys()
    assert (access[0]["tenant"], access[0]["app"]) == ("acme", "acme-app")
    assert access[0]["session_id"] == created["session_id"]
    for secret in (*prod.keys.values(), created["gm_token"], created["spectator_token"]):
        assert secret not in text
