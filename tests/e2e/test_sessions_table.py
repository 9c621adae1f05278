"""A whole table on separate connections: a GM, three players and a spectator.

Each participant has its own HTTP client and its own graphql-transport-ws subscription.
The GM runs the table (reads the GM view, resolves encounters); every player sends its own
moves with its own token — p2 through GraphQL mutations, the others through REST. At the
escape, every subscriber must have received every event of the game, in order, exactly as
the event history redacts it for that subscriber's role, and nothing any player or the
spectator received may name a card that was never revealed.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

from tests.e2e.test_sessions_api import (
    LABEL,
    PARTY,
    SUBSCRIPTION,
    assert_no_hidden_card,
    policy,
    revealed_labels,
)
from tests.graphql_shapes import as_rest, command_input, fragments, spread, without_nulls

pytestmark = pytest.mark.e2e

SEED = "daedalus-table-1"
MAX_STEPS = 600
GRAPHQL_PLAYERS = {"p2"}  # the others play over REST
SEND_COMMAND = f"""mutation($id: ID!, $t: String!, $c: SessionCommandInput!) {{
  sendCommand(id: $id, token: $t, command: $c) {{
    __typename
    ... on CommandResult {{
      version duplicate events {{ {spread("SessionEvent")} }} view {{ ...LabyrinthTableViewFields }}
    }}
    ... on Problem {{ code message }}
  }}
}}
{fragments("SessionEvent", "LabyrinthTableView")}"""


class Subscriber(threading.Thread):
    """One viewer's live subscription, drained on its own thread into `messages`."""

    def __init__(self, ws: ClientConnection, session_id: str, token: str) -> None:
        super().__init__(daemon=True)
        self.ws = ws
        self.ws.send(json.dumps({"type": "connection_init", "payload": {"token": token}}))
        assert json.loads(self.ws.recv(timeout=10))["type"] == "connection_ack"
        payload = {"query": SUBSCRIPTION, "variables": {"id": session_id, "after": 0}}
        self.ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        self.messages: list[dict[str, Any]] = []
        self.stopping = threading.Event()
        self.start()

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                self.messages.append(json.loads(self.ws.recv(timeout=0.2)))
            except TimeoutError:
                continue
            except ConnectionClosed:
                return

    def last_version(self) -> int:
        events = [m for m in list(self.messages) if m.get("type") == "next"]
        return int(events[-1]["payload"]["data"]["sessionEvents"]["version"]) if events else 0

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=5)


class Seat:
    """One participant: its own HTTP client and token."""

    def __init__(self, base_url: str, token: str) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=30.0)
        self.token = token
        self.received: list[Any] = []  # every response body this seat was given

    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def rest(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        response = self.http.request(method, path, headers=self.auth(), **kwargs)
        assert response.status_code in (200, 201), response.text
        body: dict[str, Any] = response.json()
        self.received.append(body)
        return body

    def graphql(self, query: str, **variables: Any) -> dict[str, Any]:
        response = self.http.post("/graphql", json={"query": query, "variables": variables})
        assert response.status_code == 200 and "errors" not in response.json(), response.text
        body: dict[str, Any] = response.json()
        self.received.append(body)
        data: dict[str, Any] = body["data"]
        return data


class _Table:
    """The adapter `assert_no_hidden_card` expects: the GM's state and a viewer's events."""

    def __init__(self, gm: Seat, session_id: str) -> None:
        self.gm_seat, self.id, self.gm = gm, session_id, gm.token

    def state(self) -> dict[str, Any]:
        view: dict[str, Any] = self.gm_seat.rest("GET", f"/v1/sessions/{self.id}")["view"]
        return view

    def events(self, token: str, after: int = 0) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        headers = {"Authorization": f"Bearer {token}"}
        while True:
            page = self.gm_seat.http.get(
                f"/v1/sessions/{self.id}/events",
                headers=headers,
                params={"after": after, "limit": 200},
            ).json()["events"]
            if not page:
                return out
            out += page
            after = page[-1]["version"]


@pytest.fixture
def seats(server_url: str) -> Iterator[dict[str, Seat]]:
    """The GM, p1..p3 and the spectator, each with its own client, at a fresh table."""
    gm_http = httpx.Client(base_url=server_url, timeout=30.0)
    created = gm_http.post(
        "/v1/sessions", json={"preset": "enchanted_forest_v2", "party": PARTY, "seed": SEED}
    )
    gm_http.close()
    assert created.status_code == 201, created.text
    body = created.json()
    gm = Seat(server_url, body["gm_token"])
    gm.received.append({"session_id": body["session_id"]})
    out = {"gm": gm, "spectator": Seat(server_url, body["spectator_token"])}
    for member in PARTY:
        issued = gm.rest(
            "POST",
            f"/v1/sessions/{body['session_id']}/tokens",
            json={"role": "player", "member": member["id"]},
        )
        out[str(member["id"])] = Seat(server_url, issued["token"])
    try:
        yield out
    finally:
        for seat in out.values():
            seat.http.close()


def _connect(ws_url: str) -> ClientConnection:
    return connect(ws_url, subprotocols=[Subprotocol("graphql-transport-ws")], open_timeout=10)


def _send(seat: Seat, session_id: str, member: str, command: dict[str, Any]) -> int:
    """Send `command` from `seat` (REST or GraphQL by member); the version it reached."""
    if member in GRAPHQL_PLAYERS:
        c = command_input(command)
        result = seat.graphql(SEND_COMMAND, id=session_id, t=seat.token, c=c)["sendCommand"]
        assert result["__typename"] == "CommandResult", result
        assert not result["duplicate"]
        return int(result["version"])
    result = seat.rest("POST", f"/v1/sessions/{session_id}/commands", json=command)
    return int(result["version"])


def test_a_table_on_separate_connections_plays_to_escape(
    server_url: str, seats: dict[str, Seat]
) -> None:
    gm = seats["gm"]
    session_id = gm.received[0]["session_id"]
    table = _Table(gm, session_id)
    ws_url = server_url.replace("http", "ws", 1) + "/graphql"
    with contextlib.ExitStack() as stack:
        subscribers = {
            name: Subscriber(stack.enter_context(_connect(ws_url)), session_id, seat.token)
            for name, seat in seats.items()
        }
        for subscriber in subscribers.values():  # stopped (LIFO) before their socket closes
            stack.callback(subscriber.stop)
        steps, senders = 0, set[str]()
        while steps < MAX_STEPS:
            state = table.state()
            if state["phase"] in ("escaped", "ended"):
                break
            command = policy(state)
            member = command.get("player")
            sender = member or "gm"
            senders.add(sender)
            _send(seats[sender], session_id, sender, command)
            if steps % 10 == 0:  # players and the spectator look at the table now and then
                for name in ("p1", "p3", "spectator"):
                    seats[name].rest("GET", f"/v1/sessions/{session_id}")
                seats["p2"].graphql(
                    "query($id: ID!, $t: String!) { session(id: $id, token: $t) {"
                    " ... on SessionView { version view { ... on LabyrinthTableView {"
                    " phase river { slot faceUp kind label } } } } } }",
                    id=session_id,
                    t=seats["p2"].token,
                )
            steps += 1
        final = table.state()
        assert final["phase"] == "escaped", final.get("outcome")
        assert {"p1", "p2", "p3"} <= senders, "every player sent moves with their own token"
        version = gm.rest("GET", f"/v1/sessions/{session_id}")["version"]
        deadline = time.monotonic() + 10
        # Every feed has the final event and, after it, its end (not only the event: the
        # `complete` may come a little later, and the feeds are stopped below).
        while time.monotonic() < deadline and any(
            s.last_version() < version or s.messages[-1:] != [{"id": "1", "type": "complete"}]
            for s in subscribers.values()
        ):
            time.sleep(0.05)

    feeds: dict[str, list[dict[str, Any]]] = {}
    for name, subscriber in subscribers.items():
        # The feed completes after the final event (docs/PROTOCOL.md).
        assert subscriber.messages[-1] == {"id": "1", "type": "complete"}, name
        events = subscriber.messages[:-1]
        assert all(m["type"] == "next" for m in events), name
        shown = [m["payload"]["data"]["sessionEvents"] for m in events]
        assert all(e["__typename"].endswith("Event") for e in shown), (name, shown[:1])
        shown = [as_rest(e, "SessionEventPayload") for e in shown]
        # Every event of the game, once each and in order...
        assert [e["version"] for e in shown] == list(range(1, version + 1)), name
        # ...redacted exactly as the event history redacts it for this role.
        feeds[name] = shown
        assert feeds[name] == without_nulls(table.events(seats[name].token)), name
    assert feeds["gm"][-1]["type"] == "MazeEscaped"
    assert all(feed[-1]["type"] == "MazeEscaped" for feed in feeds.values())
    assert feeds["p1"] != feeds["gm"] and feeds["spectator"] != feeds["gm"]

    # The cards the table never saw, by their GM-visible identities.
    gm_events = table.events(gm.token)
    cards = final["cards"]
    hidden = {c["label"] for c in cards.values()} - revealed_labels(gm_events)
    assert hidden, "the game should end with some cards never revealed"
    assert all(LABEL.fullmatch(label) for label in hidden)
    for name in ("p1", "p2", "p3", "spectator"):
        outputs: list[Any] = [*seats[name].received, *subscribers[name].messages]
        text = json.dumps(outputs, ensure_ascii=False)
        assert not hidden & set(LABEL.findall(text)), name
        assert_no_hidden_card(table, outputs)  # type: ignore[arg-type]
    # The GM's feed does carry identities: the check above is not vacuous.
    assert '"c01"' in json.dumps(feeds["gm"], ensure_ascii=False)
