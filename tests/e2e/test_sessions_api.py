"""Labyrinth sessions through the running server: REST, GraphQL and a live subscription."""

from __future__ import annotations

import contextlib
import json
import re
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

from tests.graphql_shapes import as_rest, command_input, fragments, spread, without_nulls

pytestmark = pytest.mark.e2e

PARTY = [
    {"id": "p1", "name": "Ash", "profile": {"system": "5e", "modifiers": {"STR": 4, "WIS": 4}}},
    {"id": "p2", "name": "Bryn", "profile": {"system": "maze_rats", "dexterity": 2}},
    {"id": "p3", "name": "Cole", "profile": {"system": "the_maze", "dice": {"ready": 8}}},
]
# PARTY's profiles as GraphQL's ProfileInput (`@oneOf`: one field per system).
PROFILES: dict[str, dict[str, Any]] = {
    "p1": {"fiveE": {"modifiers": {"STR": 4, "WIS": 4}}},
    "p2": {"mazeRats": {"dexterity": 2}},
    "p3": {"theMaze": {"dice": {"ready": 8}}},
}
LABEL = re.compile(r"(?:10|[2-9AJQK])[♠♥♣♦]")
SUBSCRIPTION = f"""subscription($id: ID!, $after: Long!, $token: String) {{
  sessionEvents(id: $id, after: $after, token: $token) {{
    {spread("SessionEventPayload")}
  }}
}}
{fragments("SessionEventPayload")}"""


class Table:
    """A session seen through its tokens: the GM, three players and a spectator."""

    def __init__(self, client: httpx.Client, preset: str = "standard_deck") -> None:
        self.client = client
        created = client.post("/v1/sessions", json={"preset": preset, "party": PARTY})
        assert created.status_code == 201, created.text
        body = created.json()
        self.id: str = body["session_id"]
        self.gm: str = body["gm_token"]
        self.spectator: str = body["spectator_token"]
        self.players = {m["id"]: self.issue({"role": "player", "member": m["id"]}) for m in PARTY}

    def issue(self, body: dict[str, Any], token: str | None = None) -> str:
        response = self.post("tokens", body, token or self.gm)
        assert response.status_code == 201, response.text
        token_text: str = response.json()["token"]
        return token_text

    def post(self, path: str, body: dict[str, Any], token: str) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"}
        return self.client.post(f"/v1/sessions/{self.id}/{path}", json=body, headers=headers)

    def get(self, path: str, token: str, **params: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"}
        url = f"/v1/sessions/{self.id}{path}"
        return self.client.get(url, headers=headers, params=params)

    def state(self) -> dict[str, Any]:
        response = self.get("", self.gm)
        assert response.status_code == 200, response.text
        view: dict[str, Any] = response.json()["view"]
        return view

    def events(self, token: str, after: int = 0) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        while True:
            response = self.get("/events", token, after=after, limit=200)
            assert response.status_code == 200, response.text
            out += response.json()["events"]
            after = response.json()["next_after"]
            if after is None:
                return out

    def send(self, command: dict[str, Any], token: str | None = None) -> dict[str, Any]:
        """Send as the command's own player (or the GM), expecting success."""
        token = token or self.players.get(command.get("player", ""), self.gm)
        response = self.post("commands", command, token)
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result


def policy(state: dict[str, Any]) -> dict[str, Any]:
    """A simple table on the GM view: act when free, prefer Right Paths, disarm, flee."""
    phase, player = state["phase"], state["active"]
    if phase == "encounter":
        return {"type": "ResolveEncounter", "outcome": "party_fled"}
    if phase == "trap":
        return {"type": "AttemptDisarm", "player": player}
    kind = {slot: state["cards"][card]["kind"] for slot, card in state["slots"].items()}
    if phase == "choice":
        options = state["choice"]["options"]
        paths = [o for o in options if kind[o] == "right_path"]
        if state["choice"]["kind"] == "bottom":
            others = [o for o in options if o not in paths]
            return {"type": "ChooseCard", "player": player, "card": (others or options)[0]}
        return {"type": "ChooseCard", "player": player, "card": (paths or options)[0]}
    by_card = {card: slot for slot, card in state["slots"].items()}
    down = [by_card[c] for c in state["river"] if c not in state["face_up"]]
    free = not state["action_taken"]
    if free and state["asleep"]:
        target = next(iter(state["asleep"]))
        return {"type": "TakeAction", "player": player, "action": "wake_player", "target": target}
    if free and len(down) >= 2 and "careful_consideration" not in state["locked"]:
        action = {"action": "careful_consideration", "cards": down[:2]}
        return {"type": "TakeAction", "player": player, **action}
    if free and "forge_a_path" not in state["locked"]:
        return {"type": "TakeAction", "player": player, "action": "forge_a_path"}
    return {"type": "FlipCard", "player": player, "card": down[0]}


def revealed_labels(gm_events: list[dict[str, Any]]) -> set[str]:
    """Labels of every card whose face some event showed the table."""
    seen: set[str] = set()
    for e in gm_events:
        cards: list[dict[str, Any]] = []
        if e["type"] in ("CardRevealed", "DeadEndPlaced", "CardRevealedByGm"):
            cards = [e["card"]]
        elif e["type"] == "ScoutRevealed":
            cards = [e["river_card"], e["deck_card"]]
        elif e["type"] in ("CardsConsidered", "ElementaryDrawn"):
            cards = e["cards"]
        elif e["type"] == "RiverDealt":
            cards = [s for s in e["slots"] if s["face_up"]]
        seen |= {c["label"] for c in cards}
    return seen


def assert_no_hidden_card(table: Table, outputs: list[Any]) -> None:
    """No internal card id, and no label the table has not seen, in any of `outputs`."""
    gm_state = table.state()
    text = json.dumps(outputs, ensure_ascii=False)
    for card_id in gm_state["cards"]:
        assert f'"{card_id}"' not in text
    assert set(LABEL.findall(text)) <= revealed_labels(table.events(table.gm))
    hidden = {slot for slot, c in gm_state["slots"].items() if c not in gm_state["face_up"]}
    for output in outputs:
        for item in output.get("view", {}).get("river", []) if isinstance(output, dict) else []:
            if item.get("slot") in hidden:
                assert "label" not in item and "kind" not in item


def play(table: Table, steps: int) -> list[dict[str, Any]]:
    """Play `steps` commands by the policy, each sent with its sender's own token."""
    results = []
    for _ in range(steps):
        state = table.state()
        if state["phase"] in ("escaped", "ended"):
            break
        results.append(table.send(policy(state)))
    return results


def test_a_session_starts_with_initiative_rolled_and_answers_each_viewer(
    client: httpx.Client,
) -> None:
    table = Table(client)
    gm = table.get("", table.gm).json()
    assert gm["role"] == "gm" and gm["view"]["phase"] == "turn" and "cards" in gm["view"]
    mine = table.get("", table.players["p2"]).json()
    assert mine["role"] == "player" and mine["member"] == "p2"
    assert mine["view"]["viewer"] == "p2" and "cards" not in mine["view"]
    assert mine["version"] == gm["version"]
    watching = table.get("", table.spectator).json()["view"]
    assert all("slot" not in card for card in watching["river"])


def test_a_player_cannot_act_for_another_member_or_read_gm_data(client: httpx.Client) -> None:
    table = Table(client)
    active = table.state()["active"]
    other = next(p for p in table.players if p != active)
    slot = table.get("", table.players[active]).json()["view"]["river"][0]["slot"]
    forged = table.post(
        "commands", {"type": "FlipCard", "player": active, "card": slot}, table.players[other]
    )
    assert forged.status_code == 403 and forged.json()["code"] == "forbidden"
    assert forged.headers["content-type"].startswith("application/problem+json")
    gm_only = table.post("commands", {"type": "EndMaze"}, table.players[active])
    assert gm_only.status_code == 403
    assert table.get("", table.players[active], view="gm").status_code == 403
    issued = table.post("tokens", {"role": "spectator"}, table.players[active])
    assert issued.status_code == 403
    assert table.state()["phase"] == "turn"  # nothing was recorded


def test_a_spectator_can_only_watch(client: httpx.Client) -> None:
    table = Table(client)
    state = table.state()
    slot = next(s for s, c in state["slots"].items() if c in state["river"])
    refused = table.post(
        "commands", {"type": "FlipCard", "player": state["active"], "card": slot}, table.spectator
    )
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    assert table.get("", table.spectator).status_code == 200
    assert table.get("/events", table.spectator).status_code == 200
    assert table.post("tokens", {"role": "spectator"}, table.spectator).status_code == 403


@pytest.mark.parametrize(
    "header",
    [None, "Bearer nonsense", "Bearer v1.e30.AAAA", "Basic dXNlcjpwYXNz"],
)
def test_a_missing_or_forged_token_is_401(client: httpx.Client, header: str | None) -> None:
    table = Table(client)
    headers = {"Authorization": header} if header else {}
    response = client.get(f"/v1/sessions/{table.id}", headers=headers)
    assert response.status_code == 401 and response.json()["code"] == "invalid_token"
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert "nonsense" not in response.text


def test_a_token_for_another_session_is_403(client: httpx.Client) -> None:
    first, second = Table(client), Table(client)
    response = second.get("", first.gm)
    assert response.status_code == 403 and response.json()["code"] == "forbidden"


def test_players_and_spectators_never_see_an_unrevealed_card(client: httpx.Client) -> None:
    table = Table(client)
    outputs: list[Any] = []
    for _ in range(25):
        state = table.state()
        if state["phase"] in ("escaped", "ended"):
            break
        command = policy(state)
        result = table.send(command)
        if "player" in command:  # sent with a player's token: rendered for that player
            outputs.append(result)
        outputs.append(table.get("", table.players["p1"]).json())
        outputs.append(table.get("", table.spectator).json())
        assert_no_hidden_card(table, outputs[-2:])
    for token in [*table.players.values(), table.spectator]:
        outputs.append(table.events(token))
    assert_no_hidden_card(table, outputs)
    gm_text = json.dumps(table.events(table.gm), ensure_ascii=False)
    assert '"c01"' in gm_text  # the GM's feed does carry card identities


def test_pages_of_events_chain_by_next_after_until_it_is_null(client: httpx.Client) -> None:
    table = Table(client)
    for _ in range(4):
        table.send({"type": "RollDice", "expression": "2d6", "visibility": "gm"}, table.gm)
    version = table.get("/events", table.gm).json()["version"]
    for token in (table.gm, table.spectator):
        versions, after, pages = [], 0, 0
        while after is not None:
            page = table.get("/events", token, after=after, limit=3).json()
            assert page["version"] == version
            versions += [e["version"] for e in page["events"]]
            after, pages = page["next_after"], pages + 1
            assert after is None or after == page["events"][-1]["version"]
        assert versions == list(range(1, version + 1)) and pages == -(-version // 3)
    done = table.get("/events", table.gm, after=version, limit=3).json()
    assert done == {"version": version, "events": [], "next_after": None}


def test_a_table_roll_throws_at_most_100_dice(client: httpx.Client) -> None:
    # Every face of a table roll is stored and shown on each page of the table's events.
    table = Table(client)
    rolled = table.send({"type": "RollDice", "expression": "100d6"}, table.gm)
    assert len(rolled["events"]) == 1
    refused = table.post("commands", {"type": "RollDice", "expression": "101d6"}, table.gm)
    assert refused.status_code == 422 and refused.json()["code"] == "too_many_dice"
    assert table.get("", table.gm).json()["version"] == rolled["version"]


def test_a_retried_command_with_its_command_id_is_recorded_once(client: httpx.Client) -> None:
    table = Table(client)
    command = {**policy(table.state()), "command_id": f"retry-{uuid.uuid4()}"}
    first = table.send(command)
    again = table.send(command)
    assert again["duplicate"] and not first["duplicate"]
    assert again["events"] == first["events"] and again["version"] == first["version"]
    assert table.get("", table.gm).json()["version"] == first["version"]


def test_a_command_id_reused_for_another_command_is_a_409_over_rest_and_graphql(
    client: httpx.Client,
) -> None:
    table = Table(client)
    key = f"same-{uuid.uuid4()}"
    roll = {"type": "RollDice", "player": None, "expression": "1d6", "command_id": key}
    first = table.send(roll)
    end = {"type": "EndMaze", "reason": "x", "command_id": key}
    for other in (end, {**roll, "expression": "2d6"}, {**roll, "seen_version": 0}):
        reused = table.post("commands", other, table.gm)
        assert reused.status_code == 409, reused.text
        assert reused.json()["code"] == "idempotency_conflict"
        assert "different command" in reused.json()["detail"]
    query = """mutation($id: ID!, $t: String!, $c: SessionCommandInput!, $k: String) {
      sendCommand(id: $id, token: $t, command: $c, commandId: $k) {
        __typename ... on CommandResult { duplicate version } ... on Problem { code } } }"""

    def gql(command: dict[str, Any]) -> dict[str, Any]:
        variables = {"id": table.id, "t": table.gm, "c": command_input(command), "k": key}
        body = client.post("/graphql", json={"query": query, "variables": variables}).json()
        assert "errors" not in body, body
        sent: dict[str, Any] = body["data"]["sendCommand"]
        return sent

    assert gql(end) == {"__typename": "Problem", "code": "idempotency_conflict"}
    # The same command is still a retry, whichever way it comes (`player` left out: its
    # default, null, as the REST body spelled it).
    retried = gql({"type": "RollDice", "expression": "1d6"})
    assert retried == {
        "__typename": "CommandResult",
        "duplicate": True,
        "version": first["version"],
    }
    again = table.send(roll)
    assert again["duplicate"] and again["events"] == first["events"]
    state = table.state()
    assert (
        state["phase"] == "turn" and table.get("", table.gm).json()["version"] == first["version"]
    )


def test_a_command_decided_on_a_stale_version_is_a_409(client: httpx.Client) -> None:
    table = Table(client)
    seen = table.get("", table.gm).json()["version"]
    table.send({**policy(table.state()), "seen_version": seen})
    stale = table.post("commands", {**policy(table.state()), "seen_version": seen}, table.gm)
    assert stale.status_code == 409 and stale.json()["code"] == "version_conflict"
    # The versions, not the store's internal name for the session's stream.
    now = table.get("", table.gm).json()["version"]
    message = stale.json()["detail"]
    assert message == f"version conflict: at version {now}, not the expected {seen}"


def test_graphql_versions_are_long_so_a_far_future_version_is_a_conflict(
    client: httpx.Client,
) -> None:
    table = Table(client)
    beyond_int = 2**40  # beyond GraphQL's 32-bit Int: refused as an argument before
    queries = {
        "sendCommand": """mutation($id: ID!, $t: String!, $v: Long, $c: SessionCommandInput!) {
          sendCommand(id: $id, token: $t, command: $c, seenVersion: $v) {
            __typename ... on Problem { code } } }""",
        "overrideMember": """mutation($id: ID!, $t: String!, $v: Long) {
          overrideMember(id: $id, token: $t, member: "p1", reason: "nap",
            asleepTurns: 1, seenVersion: $v) { __typename ... on Problem { code } } }""",
    }
    for name, query in queries.items():
        variables = {"id": table.id, "t": table.gm, "v": beyond_int}
        if name == "sendCommand":
            variables["c"] = command_input(policy(table.state()))
        response = client.post("/graphql", json={"query": query, "variables": variables})
        body = response.json()
        assert "errors" not in body, body
        assert body["data"][name] == {"__typename": "Problem", "code": "version_conflict"}


def test_graphql_refuses_a_command_chosen_by_false(client: httpx.Client) -> None:
    table = Table(client)
    before = table.get("", table.gm).json()["version"]
    query = """mutation($id: ID!, $t: String!, $c: SessionCommandInput!) {
      sendCommand(id: $id, token: $t, command: $c) { ... on Problem { code field } } }"""
    commands: list[dict[str, Any]] = [{"rollInitiative": False}, {"endMaze": {}}]
    for command in commands:
        variables = {"id": table.id, "t": table.gm, "c": command}
        body = client.post("/graphql", json={"query": query, "variables": variables}).json()
        if "rollInitiative" in command:
            expected = {"code": "invalid_request", "field": "command.rollInitiative"}
            assert body["data"]["sendCommand"] == expected
            assert table.get("", table.gm).json()["version"] == before  # nothing sent
    assert table.state()["phase"] == "ended"  # `{endMaze: {}}` chose EndMaze


def test_graphql_names_a_refused_command_field_as_graphql_spells_it(client: httpx.Client) -> None:
    table = Table(client)
    query = """mutation($id: ID!, $t: String!, $c: SessionCommandInput!) {
      sendCommand(id: $id, token: $t, command: $c) { ... on Problem { code field } } }"""
    command = {"takeAction": {"player": "p1", "action": "FORGE_A_PATH", "cards": ["a"] * 4}}
    variables = {"id": table.id, "t": table.gm, "c": command}
    body = client.post("/graphql", json={"query": query, "variables": variables}).json()
    assert body["data"]["sendCommand"] == {
        "code": "invalid_request",
        "field": "command.takeAction.cards",
    }
    override = """mutation($id: ID!, $t: String!) { overrideMember(id: $id, token: $t,
      member: "p1", reason: "nap", asleepTurns: 999) { ... on Problem { code field } } }"""
    body = client.post("/graphql", json={"query": override, "variables": variables}).json()
    assert body["data"]["overrideMember"] == {"code": "invalid_request", "field": "asleepTurns"}


def test_a_refused_move_is_a_problem_with_the_engines_code(client: httpx.Client) -> None:
    table = Table(client)
    active = table.state()["active"]
    bad = table.post(
        "commands", {"type": "FlipCard", "player": active, "card": "nope"}, table.players[active]
    )
    assert bad.status_code == 422 and bad.json()["code"] == "unknown_card"
    unknown = table.post("tokens", {"role": "player", "member": "p9"}, table.gm)
    assert unknown.status_code == 422 and unknown.json()["code"] == "unknown_player"
    typo = table.post("commands", {"type": "Teleport"}, table.gm)
    assert typo.status_code == 422 and typo.json()["code"] == "invalid_request"


@contextlib.contextmanager
def _subscribe(url: str, session_id: str, token: str, after: int) -> Iterator[ClientConnection]:
    with connect(url, subprotocols=[Subprotocol("graphql-transport-ws")], open_timeout=10) as ws:
        yield _start(ws, session_id, token, after)


def _start(ws: ClientConnection, session_id: str, token: str, after: int) -> ClientConnection:
    ws.send(json.dumps({"type": "connection_init", "payload": {"token": token}}))
    assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
    variables = {"id": session_id, "after": after}
    payload = {"query": SUBSCRIPTION, "variables": variables}
    ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
    return ws


def _next_events(ws: ClientConnection, count: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    while len(out) < count:
        message = json.loads(ws.recv(timeout=10))
        assert message["type"] == "next", message
        shown = message["payload"]["data"]["sessionEvents"]
        typed = shown["__typename"] != "Problem"
        out.append(as_rest(shown, "SessionEventPayload") if typed else shown)
    return out


def test_the_subscription_streams_a_viewers_events_live_and_resumes(
    client: httpx.Client, server_url: str
) -> None:
    table = Table(client)
    ws_url = server_url.replace("http", "ws", 1) + "/graphql"
    version = table.get("", table.gm).json()["version"]
    token = table.players["p1"]
    with _subscribe(ws_url, table.id, token, 0) as ws:
        backlog = _next_events(ws, version)
        assert [e["version"] for e in backlog] == list(range(1, version + 1))
        result = table.send(policy(table.state()))
        live = _next_events(ws, len(result["events"]))
    assert [e["version"] for e in live] == list(range(version + 1, result["version"] + 1))
    # Typed over GraphQL, the same events as REST shows this viewer (GraphQL: null where
    # REST leaves a field out).
    assert live == without_nulls(table.events(token, after=version))
    assert_no_hidden_card(table, backlog + live)
    with _subscribe(ws_url, table.id, token, version) as ws:
        resumed = _next_events(ws, len(live))
    assert resumed == live


def test_the_subscription_completes_after_the_sessions_final_event(
    client: httpx.Client, server_url: str
) -> None:
    table = Table(client)
    ws_url = server_url.replace("http", "ws", 1) + "/graphql"
    before = table.get("", table.gm).json()["version"]
    with _subscribe(ws_url, table.id, table.players["p1"], 0) as live:
        assert len(_next_events(live, before)) == before
        ended = table.send({"type": "EndMaze", "reason": "time is up"})
        (last,) = _next_events(live, 1)
        assert (last["type"], last["reason"]) == ("MazeEnded", "time is up")
        assert json.loads(live.recv(timeout=10)) == {"id": "1", "type": "complete"}
    # A viewer who subscribes after the end gets the whole history, then the completion.
    with _subscribe(ws_url, table.id, table.spectator, 0) as late:
        history = _next_events(late, ended["version"])
        assert history[-1]["type"] == "MazeEnded"
        assert json.loads(late.recv(timeout=10)) == {"id": "1", "type": "complete"}


def test_the_subscription_refuses_a_forged_token_as_a_problem(
    client: httpx.Client, server_url: str
) -> None:
    table = Table(client)
    ws_url = server_url.replace("http", "ws", 1) + "/graphql"
    with _subscribe(ws_url, table.id, "v1.forged.token", 0) as ws:
        (first,) = _next_events(ws, 1)
        assert (first["__typename"], first["code"]) == ("Problem", "invalid_token")
        assert first["message"] and first["field"] is None
        assert json.loads(ws.recv(timeout=10))["type"] == "complete"


def test_sessions_are_played_over_graphql_with_problems_as_results(client: httpx.Client) -> None:
    def gql(query: str, **variables: Any) -> dict[str, Any]:
        response = client.post("/graphql", json={"query": query, "variables": variables})
        assert response.status_code == 200 and "errors" not in response.json(), response.text
        data: dict[str, Any] = response.json()["data"]
        return data

    created = gql(
        """mutation($party: [PartyMemberInput!]!) {
          createSession(preset: "enchanted_forest_v2", party: $party) {
            ... on CreatedSession { sessionId gmToken version } ... on Problem { code } } }""",
        party=[
            {"id": m["id"], "name": m["name"], "profile": PROFILES[str(m["id"])]} for m in PARTY
        ],
    )["createSession"]
    sid, gm = created["sessionId"], created["gmToken"]
    # The typed profiles gave the checks the REST bodies give (the GM view shows them).
    rest = Table(client, preset="enchanted_forest_v2").state()["party"]
    issued = gql(
        """mutation($id: ID!, $t: String!) { issueSessionToken(id: $id, token: $t,
          role: PLAYER, member: "p1") { ... on SessionToken { token member } } }""",
        id=sid,
        t=gm,
    )["issueSessionToken"]
    assert issued["member"] == "p1"
    looked = gql(
        """query($id: ID!, $t: String!) { session(id: $id, token: $t, asGm: true) {
          __typename ... on SessionView { version view { ...GM } } ... on Problem { code } } }
        fragment GM on LabyrinthView { ...LabyrinthGmViewFields }
        """
        + fragments("LabyrinthGmView"),
        id=sid,
        t=gm,
    )["session"]
    gm_view = as_rest(looked["view"], "LabyrinthGmView")
    assert gm_view["party"] == rest
    command = policy(gm_view)
    sent = gql(
        """mutation($id: ID!, $t: String!, $c: SessionCommandInput!, $v: Long) {
          sendCommand(id: $id,
          token: $t, command: $c, seenVersion: $v) {
          ... on CommandResult { version events { version type } } ... on Problem { code } } }""",
        id=sid,
        t=gm,
        c=command_input(command),
        v=looked["version"],
    )["sendCommand"]
    assert sent["version"] > looked["version"] and sent["events"]
    refused = gql(
        """query($id: ID!, $t: String!) { session(id: $id, token: $t, asGm: true) {
          ... on Problem { code } } }""",
        id=sid,
        t=issued["token"],
    )["session"]
    assert refused == {"code": "forbidden"}
    page = gql(
        """query($id: ID!, $t: String!) { sessionEvents(id: $id, token: $t, after: 1) {
          ... on SessionEventPage { version events { version type } } } }""",
        id=sid,
        t=issued["token"],
    )["sessionEvents"]
    assert [e["version"] for e in page["events"]] == list(range(2, page["version"] + 1))


def test_a_party_plays_the_enchanted_forest_to_escape_through_rest(client: httpx.Client) -> None:
    table = Table(client, preset="enchanted_forest_v1")
    play(table, 600)
    state = table.state()
    assert state["phase"] == "escaped", state["outcome"]
    spectator_feed = table.events(table.spectator)
    assert spectator_feed[-1]["type"] == "MazeEscaped"
