"""Browsers and publishable keys, against a production-mode server (issue: browser-ready).

CORS preflights are answered before any key is asked for; a publishable key works only
from its own origins and only for what a player may do; a WebSocket without a valid key
is refused at connection_init; each operation on a socket spends the caller's rate limit.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin, Subprotocol

from api.keys import config_entry, new_key
from infra.settings import Settings, UnsafeSettingsError
from tests.e2e.conftest import serve

PAGE = "http://127.0.0.1:30000"  # the publishable key's own origin (Foundry's default port)
OTHER_PAGE = "http://127.0.0.1:30001"  # another key's origin: passes CORS, not this key
GM_SCREEN = "https://gm.example.com"  # configured with DAEDALUS_CORS_ORIGINS
STRANGER = "https://evil.example.com"
PARTY = [{"id": "p1", "name": "Ash"}, {"id": "p2", "name": "Bryn"}]
BURST = 20
SUBSCRIBE_SESSION = """subscription($id: ID!) { sessionEvents(id: $id) {
  __typename ... on SessionEvent { version } ... on Problem { code } } }"""


@dataclass(frozen=True)
class Server:
    url: str
    secret: str
    publishable: str

    def http(self, key: str | None = None, origin: str | None = None) -> httpx.Client:
        headers = {"X-API-Key": key} if key else {}
        if origin:
            headers["Origin"] = origin
        return httpx.Client(base_url=self.url, headers=headers, timeout=30.0)

    @property
    def ws_url(self) -> str:
        return self.url.replace("http", "ws", 1) + "/graphql"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    secret, publishable, other = new_key(), new_key(publishable=True), new_key(publishable=True)
    config: dict[str, Any] = {
        **config_entry(secret, "gm-tools", "acme"),
        **config_entry(publishable, "foundry-module", "acme", [PAGE]),
        **config_entry(other, "owlbear-extension", "acme", [OTHER_PAGE]),
    }
    root = tmp_path_factory.mktemp("daedalus-browser")
    env = {
        "DAEDALUS_ENV": "production",
        "DAEDALUS_SECRET_KEY": "e2e-browser-secret-" + "x" * 20,
        "DAEDALUS_API_KEYS": json.dumps(config),
        "DAEDALUS_CORS_ORIGINS": GM_SCREEN,
        "DAEDALUS_RATE_LIMIT_RPS": "1",
        "DAEDALUS_RATE_LIMIT_BURST": str(BURST),
    }
    with serve(root, env) as (url, _log):
        yield Server(url, secret, publishable)


def _preflight(server: Server, path: str, origin: str) -> httpx.Response:
    headers = {
        "Origin": origin,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, x-api-key, authorization",
    }
    with server.http() as http:
        return http.options(path, headers=headers)


@pytest.mark.parametrize("path", ["/v1/dice/roll", "/graphql", "/v1/sessions/s-123/commands"])
@pytest.mark.parametrize("origin", [PAGE, OTHER_PAGE, GM_SCREEN])
def test_a_preflight_from_an_allowed_origin_is_answered_before_any_key(
    server: Server, path: str, origin: str
) -> None:
    answer = _preflight(server, path, origin)
    assert answer.status_code == 200, answer.text
    assert answer.headers["access-control-allow-origin"] == origin
    allowed = answer.headers["access-control-allow-headers"].lower()
    assert {"authorization", "content-type", "x-api-key"} <= {h.strip() for h in allowed.split(",")}


def test_a_preflight_from_another_origin_is_refused(server: Server) -> None:
    answer = _preflight(server, "/v1/dice/roll", STRANGER)
    assert answer.status_code == 400
    assert "access-control-allow-origin" not in answer.headers


def test_a_browser_can_read_refusals_and_rate_limit_headers(server: Server) -> None:
    with server.http(origin=GM_SCREEN) as http:
        refused = http.post("/v1/dice/roll", json={"expression": "1d6"})
    assert (refused.status_code, refused.json()["code"]) == (401, "missing_api_key")
    assert refused.headers["access-control-allow-origin"] == GM_SCREEN
    with server.http(server.secret, origin=GM_SCREEN) as http:
        served = http.post("/v1/dice/roll", json={"expression": "1d6"})
    assert served.status_code == 200
    exposed = served.headers["access-control-expose-headers"].lower()
    assert "ratelimit-remaining" in exposed and "retry-after" in exposed


def test_a_page_on_an_origin_not_allowed_cannot_write_even_with_a_secret_key(
    server: Server,
) -> None:
    """Its answer would not reach the page (CORS), but the write would be done: a page
    that got hold of a key, or a browser that sends credentials by itself, is refused."""
    body = {"preset": "standard_deck", "party": PARTY}
    with server.http(server.secret, origin=STRANGER) as http:
        refused = http.post("/v1/sessions", json=body)
        read = http.get("/v1/labyrinths/presets")
    assert (refused.status_code, refused.json()["code"]) == (403, "origin_not_allowed")
    assert read.status_code == 200, read.text  # a read is CORS's to hide
    with server.http(server.secret, origin=GM_SCREEN) as http:
        assert http.post("/v1/sessions", json=body).status_code == 201


def test_a_publishable_key_rolls_from_its_own_origin_only(server: Server) -> None:
    roll = {"expression": "2d6+1"}
    with server.http(server.publishable, origin=PAGE) as http:
        ok = http.post("/v1/dice/roll", json=roll)
        odds = http.post("/v1/dice/probability", json={"expression": "1d20 >= 11"})
        check = http.post("/v1/maze/checks", json={"die": 10, "modifier": 1, "dc": 6})
    assert ok.status_code == 200 and 3 <= ok.json()["total"] <= 13
    assert odds.status_code == 200 and check.status_code == 200, (odds.text, check.text)
    for origin in (OTHER_PAGE, STRANGER, None):
        with server.http(server.publishable, origin=origin) as http:
            refused = http.post("/v1/dice/roll", json=roll)
        assert (refused.status_code, refused.json()["code"]) == (403, "origin_not_allowed")


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/v1/sessions", {"preset": "standard_deck", "party": PARTY}),
        ("POST", "/v1/campaigns", {"name": "Season one"}),
        ("POST", "/v1/simulations", {"preset": "standard_deck", "games": 10}),
        ("POST", "/v1/tunings", {}),
        ("POST", "/v1/dice/fair/commitments", {}),
    ],
)
def test_nothing_a_publishable_key_reaches_creates_sessions_campaigns_or_jobs(
    server: Server, method: str, path: str, body: dict[str, Any]
) -> None:
    with server.http(server.publishable, origin=PAGE) as http:
        refused = http.request(method, path, json=body)
    assert (refused.status_code, refused.json()["code"]) == (403, "secret_key_required")


@pytest.mark.parametrize(
    "query",
    [
        'mutation { createSession(preset: "standard_deck", party: []) { __typename } }',
        'mutation { startSimulation(preset: "standard_deck") { __typename } }',
        # Hidden behind a fragment or an inline fragment, still the root field it is.
        "mutation { ...M } fragment M on Mutation { createCommitment { __typename } }",
        'mutation { ... on Mutation { createCampaign(name: "x") { __typename } } }',
        'query { roll(expression: "1d6") { __typename } simulation(id: "x") { __typename } }',
    ],
)
def test_a_publishable_key_cannot_reach_secret_graphql_fields(server: Server, query: str) -> None:
    with server.http(server.publishable, origin=PAGE) as http:
        answer = http.post("/graphql", json={"query": query})
    body = answer.json()
    assert "data" not in body or body["data"] is None, body
    assert [e["extensions"]["code"] for e in body["errors"]] == ["secret_key_required"]


def test_a_publishable_key_plays_a_session_with_its_role_token(server: Server) -> None:
    with server.http(server.secret) as gm_tools:
        created = gm_tools.post("/v1/sessions", json={"preset": "standard_deck", "party": PARTY})
    assert created.status_code == 201, created.text
    session = created.json()
    bearer = {"Authorization": f"Bearer {session['spectator_token']}"}
    query = 'query { roll(expression: "1d8") { ... on RollResult { total } } }'
    # The GM at the table page, on its publishable key: the GM token says they may.
    invite = """mutation($id: ID!, $t: String!) { createSessionJoinCode(id: $id, token: $t,
      member: "p1") { ... on JoinCode { member } ... on Problem { code } } }"""
    gm = {"id": session["session_id"], "t": session["gm_token"]}
    with server.http(server.publishable, origin=PAGE) as http:
        view = http.get(f"/v1/sessions/{session['session_id']}", headers=bearer)
        events = http.get(f"/v1/sessions/{session['session_id']}/events", headers=bearer)
        gql = http.post("/graphql", json={"query": query})
        invited = http.post("/graphql", json={"query": invite, "variables": gm})
        by_rest = http.post(
            f"/v1/sessions/{session['session_id']}/join-codes",
            json={"member": "p2"},
            headers={"Authorization": f"Bearer {session['gm_token']}"},
        )
    assert view.status_code == 200 and events.status_code == 200, (view.text, events.text)
    assert gql.status_code == 200 and "errors" not in gql.json(), gql.text
    assert invited.json()["data"]["createSessionJoinCode"] == {"member": "p1"}, invited.text
    assert by_rest.status_code == 201, by_rest.text


def _socket(server: Server, origin: str | None) -> ClientConnection:
    return connect(
        server.ws_url,
        subprotocols=[Subprotocol("graphql-transport-ws")],
        origin=Origin(origin) if origin else None,
        open_timeout=10,
    )


def _init(ws: ClientConnection, payload: dict[str, Any]) -> dict[str, Any]:
    ws.send(json.dumps({"type": "connection_init", "payload": payload}))
    frame = ws.recv(timeout=10)
    assert isinstance(frame, str), frame  # a text frame: browsers' clients refuse binary ones
    message: dict[str, Any] = json.loads(frame)
    return message


@pytest.mark.parametrize(
    ("payload", "code", "reason"),
    [
        ({}, 4401, "missing_api_key"),
        ({"api_key": "dk_" + "a" * 43}, 4401, "invalid_api_key"),
    ],
)
def test_a_socket_without_a_valid_key_is_refused_at_connection_init(
    server: Server, payload: dict[str, Any], code: int, reason: str
) -> None:
    with _socket(server, None) as ws:
        ws.send(json.dumps({"type": "connection_init", "payload": payload}))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (code, reason)


def test_a_publishable_key_on_a_socket_follows_a_session_from_its_origin(server: Server) -> None:
    with server.http(server.secret) as gm_tools:
        session = gm_tools.post(
            "/v1/sessions", json={"preset": "standard_deck", "party": PARTY}
        ).json()
    init = {"api_key": server.publishable, "token": session["spectator_token"]}
    with _socket(server, PAGE) as ws:
        assert _init(ws, init)["type"] == "connection_ack"
        payload = {"query": SUBSCRIBE_SESSION, "variables": {"id": session["session_id"]}}
        ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        first = json.loads(ws.recv(timeout=10))
    shown = first["payload"]["data"]["sessionEvents"]
    assert shown == {"__typename": "MazeStartedEvent", "version": 1}
    # The same key from another key's origin passes the handshake, not the key check.
    with _socket(server, OTHER_PAGE) as ws:
        ws.send(json.dumps({"type": "connection_init", "payload": init}))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4403, "origin_not_allowed")


def test_a_socket_from_an_origin_not_allowed_is_refused_at_the_handshake(server: Server) -> None:
    with pytest.raises(InvalidStatus) as refused:
        _socket(server, STRANGER)
    assert refused.value.response.status_code == 403


def test_a_publishable_key_cannot_subscribe_to_a_jobs_progress(server: Server) -> None:
    query = 'subscription { simulationProgress(id: "job-1") { __typename } }'
    with _socket(server, PAGE) as ws:
        assert _init(ws, {"api_key": server.publishable})["type"] == "connection_ack"
        ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": query}}))
        answer = json.loads(ws.recv(timeout=10))
    assert answer["type"] == "error"
    assert [e["extensions"]["code"] for e in answer["payload"]] == ["secret_key_required"]


def test_each_operation_on_a_socket_spends_the_rate_limit(server: Server) -> None:
    query = '{ roll(expression: "1d4") { __typename } }'
    with _socket(server, None) as ws:
        assert _init(ws, {"api_key": server.secret})["type"] == "connection_ack"
        sent = 3 * BURST
        for i in range(sent):
            op = {"id": str(i), "type": "subscribe", "payload": {"query": query}}
            ws.send(json.dumps(op))
        answers: list[dict[str, Any]] = []
        while len([a for a in answers if a["type"] in ("complete", "error")]) < sent:
            answers.append(json.loads(ws.recv(timeout=10)))
    limited = [a for a in answers if a["type"] == "error"]
    served = [a for a in answers if a["type"] == "next"]
    assert len(served) <= BURST + 3, "at 1/s, little more than the burst is served"
    assert len(limited) >= sent - BURST - 3
    assert {e["extensions"]["code"] for a in limited for e in a["payload"]} == {"rate_limited"}


def test_a_wildcard_origin_is_refused_in_production(tmp_path: Path) -> None:
    with pytest.raises(UnsafeSettingsError, match="DAEDALUS_CORS_ORIGINS"):
        Settings.model_validate(
            {
                "environment": "production",
                "secret_key": "s" * 40,
                "cors_origins_raw": "*",
                "data_dir": tmp_path,
            }
        )
