"""Campaigns through the running server: REST, GraphQL, the live subscription, and the
clock — advanced by hand, and ticking on its own with the server's worker and beat."""

from __future__ import annotations

import contextlib
import copy
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

from tests.e2e.conftest import serve
from tests.graphql_shapes import as_rest, fragments, spread, without_nulls

pytestmark = pytest.mark.e2e

# One each of d12, d10, d8 and d6, as The Maze requires (the clock rolls Ready and
# Surroundings skills: Hardy, Athletics; Scavenge, Survival, Medicine).
ABILITIES = {"ready": 8, "surroundings": 6, "navigation": 10, "interaction": 12}
SHEETS: dict[str, dict[str, Any]] = {
    "r1": {
        "name": "Ash",
        "abilities": ABILITIES,
        "skills": [{"name": "Scavenge", "modifier": 2}, {"name": "Survival", "modifier": 1}],
    },
    "r2": {"name": "Bryn", "abilities": ABILITIES, "skills": [{"name": "Medicine", "modifier": 2}]},
    "r3": {"name": "Cole", "abilities": ABILITIES, "traits": ["Farmer"]},
}
# A clearing with nothing to eat, where staying fed is out of reach (DC 60 at 0 supplies).
STARVING = {"name": "Dry Glade", "supplies": 0, "rules": {"avoid_step": 1}}
SUBSCRIPTION = f"""subscription($id: ID!, $after: Long!, $token: String) {{
  campaignEvents(id: $id, after: $after, token: $token) {{
    {spread("CampaignEventPayload")}
  }}
}}
{fragments("CampaignEventPayload")}"""


class Campaign:
    """A campaign seen through its tokens: the GM, one player per runner, a spectator."""

    def __init__(self, client: httpx.Client, **body: Any) -> None:
        self.client = client
        created = client.post("/v1/campaigns", json={"name": "Glade", **body})
        assert created.status_code == 201, created.text
        assert created.headers["cache-control"] == "no-store"
        shown = created.json()
        self.id: str = shown["campaign_id"]
        self.gm: str = shown["gm_token"]
        self.spectator: str = shown["spectator_token"]
        self.players: dict[str, str] = {}

    def call(self, method: str, path: str, token: str, **kwargs: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"}
        url = f"/v1/campaigns/{self.id}{path}"
        return self.client.request(method, url, headers=headers, **kwargs)

    def ok(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> Any:
        response = self.call(method, path, token or self.gm, **kwargs)
        assert response.status_code in (200, 201), response.text
        return response.json()

    def add(self, *runners: str) -> None:
        for runner in runners:
            self.ok("POST", "/runners", json={"runner": runner, "character": SHEETS[runner]})
            issued = self.ok("POST", "/tokens", json={"role": "player", "runner": runner})
            assert issued["runner"] == runner
            self.players[runner] = issued["token"]

    def view(self, token: str | None = None) -> dict[str, Any]:
        shown: dict[str, Any] = self.ok("GET", "", token)["view"]
        return shown

    def ticks(self, token: str, limit: int = 2) -> list[dict[str, Any]]:
        """Every tick, page by page (`limit` per page)."""
        out: list[dict[str, Any]] = []
        after: int | None = 0
        while after is not None:
            page = self.ok("GET", "/ticks", token, params={"after": after, "limit": limit})
            assert len(page["ticks"]) <= limit
            out += page["ticks"]
            after = page["next_after"]
        return out


def supplies_numbers(document: Any) -> list[tuple[str, Any]]:
    """Every number under a key that speaks of supplies (but the rules' maximum), anywhere."""
    found: list[tuple[str, Any]] = []
    if isinstance(document, dict):
        for key, value in document.items():
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if "suppl" in key and key != "supplies_max" and number:
                found.append((key, value))
            found += supplies_numbers(value)
    elif isinstance(document, list):
        for item in document:
            found += supplies_numbers(item)
    return found


@contextlib.contextmanager
def subscribe(
    base_url: str,
    campaign_id: str,
    token: str | None,
    after: int,
    query: str = SUBSCRIPTION,
) -> Iterator[ClientConnection]:
    """`campaignEvents` after version `after`, the token in the connection_init payload."""
    url = base_url.replace("http", "ws", 1) + "/graphql"
    with connect(url, subprotocols=[Subprotocol("graphql-transport-ws")], open_timeout=10) as ws:
        init = {} if token is None else {"token": token}
        ws.send(json.dumps({"type": "connection_init", "payload": init}))
        assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
        payload = {"query": query, "variables": {"id": campaign_id, "after": after}}
        ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        yield ws


def receive(ws: ClientConnection, count: int, timeout: float = 10) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    while len(out) < count:
        message = json.loads(ws.recv(timeout=timeout))
        assert message["type"] == "next", message
        shown = message["payload"]["data"]["campaignEvents"]
        typed = shown["__typename"] != "Problem"
        out.append(as_rest(shown, "CampaignEventPayload") if typed else shown)
    return out


def test_a_gm_creates_a_campaign_and_each_viewer_sees_it(client: httpx.Client) -> None:
    campaign = Campaign(client, supplies=40)
    campaign.add("r1", "r2")
    gm = campaign.ok("GET", "")
    assert gm["role"] == "gm" and gm["view"]["supplies"] == 40
    mine = campaign.ok("GET", "", campaign.players["r1"])
    assert mine["role"] == "player" and mine["runner"] == "r1"
    assert mine["version"] == gm["version"] == 3  # created, two runners (tokens are no events)
    for token in (campaign.players["r1"], campaign.spectator):
        view = campaign.view(token)
        assert view["supplies_level"] == "low" and not supplies_numbers(view)
        assert [r["id"] for r in view["runners"]] == ["r1", "r2"]


def test_players_choose_for_their_own_runner_only_and_spectators_only_watch(
    client: httpx.Client,
) -> None:
    campaign = Campaign(client)
    campaign.add("r1", "r2")
    r1, watcher = campaign.players["r1"], campaign.spectator
    chosen = campaign.ok("POST", "/choices", r1, json={"runner": "r1", "activity": "gather"})
    assert [e["type"] for e in chosen["events"]] == ["ActivityChosen"]
    assert chosen["view"]["choices"]["r1"]["activity"] == "gather"
    refused = [
        campaign.call("POST", "/choices", r1, json={"runner": "r2", "activity": "farm"}),
        campaign.call("POST", "/choices", watcher, json={"runner": "r1", "activity": "rest"}),
        campaign.call("POST", "/advance", r1, json={}),
        campaign.call("POST", "/advance", watcher, json={}),
        campaign.call("POST", "/runners", r1, json={"runner": "r9", "character": SHEETS["r1"]}),
        campaign.call("POST", "/adjustments", watcher, json={"type": "supplies", "delta": 5}),
        campaign.call("POST", "/tokens", r1, json={"role": "spectator"}),
        campaign.call("PUT", "/cadence", r1, json={"cadence": {"kind": "manual"}}),
        campaign.call("POST", "/end", watcher, json={}),
    ]
    for response in refused:
        assert response.status_code == 403, response.text
        assert response.headers["content-type"].startswith("application/problem+json")
        assert response.json()["code"] == "forbidden"
    campaign.ok("POST", "/adjustments", json={"type": "effect", "runner": "r1", "effect": "poison"})
    treat = {"runner": "r2", "activity": "treat", "target_runner": "r1", "cure_poison": True}
    assert campaign.ok("POST", "/choices", json=treat)["view"]["choices"]["r2"]["target_runner"]
    assert campaign.view()["choices"]["r1"]["activity"] == "gather"  # nothing else recorded


def without_avoidance_dcs(tick: dict[str, Any]) -> list[dict[str, Any]]:
    """A tick's runners with each avoidance roll's DC and band removed."""
    runners: list[dict[str, Any]] = copy.deepcopy(tick["runners"])
    for runner in runners:
        for roll in runner["avoidance"]:
            assert {"dc", "band"} <= set(roll["check"])
            del roll["check"]["dc"], roll["check"]["band"]
    return runners


def test_a_starving_clearing_hungers_and_bleeds_downtime_after_downtime(
    client: httpx.Client,
) -> None:
    campaign = Campaign(client, **STARVING)
    campaign.add("r1", "r2", "r3")
    advanced = campaign.ok("POST", "/advance", json={"through": 4})
    assert [e["index"] for e in advanced["events"]] == [0, 1, 2, 3]
    assert all(e["type"] == "DowntimePassed" for e in advanced["events"])
    view = campaign.view()
    assert view["downtime"] == 4 and view["supplies"] == 0
    for runner in view["runners"]:
        assert {"hunger", "thirst"} <= set(runner["effects"]), runner
    # Hunger and Thirst call for damage rolls every downtime: injuries pile up.
    assert sum(len(r["injuries"]) for r in view["runners"]) >= 3
    damage = [d for e in advanced["events"] for r in e["runners"] for d in r["damage"]]
    assert {d["effect"] for d in damage} >= {"hunger", "thirst"}

    # The tick history, page by page: the GM's with the numbers, the table's without.
    gm_ticks = campaign.ticks(campaign.gm)
    assert [t["index"] for t in gm_ticks] == [0, 1, 2, 3]
    assert gm_ticks == advanced["events"]
    assert all(t["supplies_after"] == 0 for t in gm_ticks)
    for token in (campaign.players["r2"], campaign.spectator):
        ticks = campaign.ticks(token, limit=3)
        assert [t["index"] for t in ticks] == [0, 1, 2, 3]
        assert all(t["supplies_level_after"] == "none" for t in ticks)
        # The table sees every roll, but not the DCs of the rolls against Hunger, Thirst
        # and Exhaustion (they follow from the supplies), nor their bands.
        assert [t["runners"] for t in ticks] == [without_avoidance_dcs(t) for t in gm_ticks]
        assert not supplies_numbers(ticks)
    # Advancing through a downtime already passed records nothing, and is no retry.
    again = campaign.ok("POST", "/advance", json={"through": 4})
    assert again["events"] == [] and again["version"] == advanced["version"]
    assert again["duplicate"] is False, again
    # With a command id: the first attempt passes nothing; its retry says it is one.
    keyed = {"through": 4, "command_id": "advance-to-4"}
    first = campaign.ok("POST", "/advance", json=keyed)
    assert (first["events"], first["duplicate"]) == ([], False), first
    retried = campaign.ok("POST", "/advance", json=keyed)
    assert (retried["events"], retried["duplicate"]) == ([], True), retried


def test_players_never_see_the_exact_supplies(client: httpx.Client) -> None:
    campaign = Campaign(client, supplies=61)
    campaign.add("r1")
    adjust = {"type": "supplies", "delta": -23, "reason": "rats in the stores"}
    adjusted = campaign.ok("POST", "/adjustments", json=adjust)
    assert adjusted["events"][0]["after"] == 38 and adjusted["view"]["supplies"] == 38
    campaign.ok("POST", "/choices", json={"runner": "r1", "activity": "gather"})
    campaign.ok("POST", "/advance", json={"through": 2})
    r1 = campaign.players["r1"]
    outputs = [
        campaign.ok("GET", "", r1),
        campaign.ok("GET", "/events", r1, params={"limit": 500}),
        campaign.ok("GET", "/ticks", r1),
        campaign.ok("POST", "/choices", r1, json={"runner": "r1", "activity": "rest"}),
    ]
    text = json.dumps(outputs)
    assert not supplies_numbers(outputs)
    assert "rats in the stores" not in text
    gm_events = campaign.ok("GET", "/events")["events"]
    assert "rats in the stores" in json.dumps(gm_events)
    shown = [e for e in outputs[1]["events"] if e["type"] == "SuppliesAdjusted"]
    assert shown and shown[0]["supplies_trend"] == "down"


def test_the_subscription_delivers_each_viewers_downtimes_and_resumes(
    client: httpx.Client, server_url: str
) -> None:
    campaign = Campaign(client, **STARVING)
    campaign.add("r1", "r2")
    version = campaign.ok("GET", "")["version"]
    with subscribe(server_url, campaign.id, campaign.players["r1"], 0) as ws:
        backlog = receive(ws, version)
        assert [e["version"] for e in backlog] == list(range(1, version + 1))
        advanced = campaign.ok("POST", "/advance", json={"through": 2})
        live = receive(ws, 2)
    assert [e["type"] for e in live] == ["DowntimePassed", "DowntimePassed"]
    assert [e["index"] for e in live] == [0, 1]
    assert [e["version"] for e in live] == [e["version"] for e in advanced["events"]]
    mine = campaign.ok("GET", "/events", campaign.players["r1"], params={"after": version})
    assert live == without_nulls(mine["events"])
    assert not supplies_numbers(backlog + live)
    # Resuming is exclusive, as for sessions: after the last version received.
    with subscribe(server_url, campaign.id, campaign.gm, live[0]["version"]) as ws:
        (resumed,) = receive(ws, 1)
    assert resumed["version"] == live[1]["version"]
    assert resumed["supplies_after"] == 0  # the GM's feed has the numbers


def test_the_subscription_refuses_a_forged_token_as_a_problem(
    client: httpx.Client, server_url: str
) -> None:
    campaign = Campaign(client)
    with subscribe(server_url, campaign.id, "v1.forged.token", 0) as ws:
        (first,) = receive(ws, 1)
        assert first["__typename"] == "Problem" and first["code"] == "invalid_token"
        assert json.loads(ws.recv(timeout=10))["type"] == "complete"


def test_the_subscription_resumes_after_a_version_as_session_events_does(
    client: httpx.Client, server_url: str
) -> None:
    campaign = Campaign(client)
    campaign.add("r1")  # version 1: created; 2: r1 joined
    with subscribe(server_url, campaign.id, campaign.gm, 1) as ws:
        (first,) = receive(ws, 1)
    assert (first["version"], first["type"]) == (2, "RunnerAdded")
    with subscribe(server_url, campaign.id, campaign.gm, -1) as ws:
        (refused,) = receive(ws, 1)
        assert {k: refused[k] for k in ("__typename", "code", "message", "field")} == {
            "__typename": "Problem",
            "code": "invalid_request",
            "message": "after must be ≥ 0",
            "field": "after",
        }
        assert json.loads(ws.recv(timeout=10))["type"] == "complete"
    # The old inclusive argument is gone: one name and one meaning for both feeds.
    old = SUBSCRIPTION.replace("after: $after", "fromVersion: $after")
    with subscribe(server_url, campaign.id, campaign.gm, 1, query=old) as ws:
        message = json.loads(ws.recv(timeout=10))
    assert message["type"] == "error" and "fromVersion" in json.dumps(message), message


def test_the_subscription_without_a_token_says_where_a_campaign_token_goes(
    client: httpx.Client, server_url: str
) -> None:
    campaign = Campaign(client)
    with subscribe(server_url, campaign.id, None, 0) as ws:
        (missing,) = receive(ws, 1)
        assert json.loads(ws.recv(timeout=10))["type"] == "complete"
    assert missing["code"] == "invalid_token"
    assert missing["message"] == (
        "a campaign token is required "
        "(the `token` argument, or `token` in the connection_init payload)"
    )


def test_two_advances_at_once_record_each_downtime_once(client: httpx.Client) -> None:
    campaign = Campaign(client, supplies=100)
    campaign.add("r1", "r2")
    results: list[httpx.Response] = []

    def advance() -> None:
        results.append(campaign.call("POST", "/advance", campaign.gm, json={"through": 6}))

    threads = [threading.Thread(target=advance) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [r.status_code for r in results] == [200, 200, 200], [r.text for r in results]
    ticks = campaign.ticks(campaign.gm, limit=100)
    assert [t["index"] for t in ticks] == [0, 1, 2, 3, 4, 5]
    assert campaign.view()["downtime"] == 6


def test_runs_and_gm_adjustments_change_the_runners(client: httpx.Client) -> None:
    campaign = Campaign(client, supplies=80)
    campaign.add("r1", "r2")
    campaign.ok("POST", "/adjustments", json={"type": "effect", "runner": "r1", "effect": "fear"})
    campaign.ok("POST", "/adjustments", json={"type": "injury", "runner": "r2", "injury": "minor"})
    run = {"run": "run-1", "runners": ["r1"], "session_id": "0123abcd"}
    started = campaign.ok("POST", "/runs", json=run)
    assert started["events"][0]["type"] == "RunStarted"
    farm = {"runner": "r1", "activity": "farm"}
    away = campaign.call("POST", "/choices", campaign.players["r1"], json=farm)
    assert away.status_code == 422 and away.json()["code"] == "runner_on_run"
    back = {"runner": "r1", "injuries": ["superficial"], "effects_cleared": ["fear"]}
    results = {"results": [back]}
    ended = campaign.ok("POST", "/runs/run-1/end", json=results)
    assert ended["events"][0]["type"] == "RunEnded"
    view = campaign.view()
    r1, r2 = view["runners"]
    assert "fear" not in r1["effects"] and [i["injury"] for i in r1["injuries"]] == ["superficial"]
    assert [i["injury"] for i in r2["injuries"]] == ["minor"]
    assert view["runs"][0]["session_id"] == "0123abcd" and view["runs"][0]["ended"] is not None
    removed = campaign.ok("DELETE", "/runners/r2")
    assert removed["events"][0]["type"] == "RunnerRemoved"


@pytest.mark.parametrize(
    "header", [None, "Bearer nonsense", "Bearer v1.e30.AAAA", "Basic dXNlcjpwYXNz"]
)
def test_a_missing_or_forged_token_is_401(client: httpx.Client, header: str | None) -> None:
    campaign = Campaign(client)
    headers = {"Authorization": header} if header else {}
    for path in ("", "/ticks"):
        response = client.get(f"/v1/campaigns/{campaign.id}{path}", headers=headers)
        assert response.status_code == 401 and response.json()["code"] == "invalid_token"
        assert response.headers["www-authenticate"].startswith("Bearer")
        # A campaign route speaks of campaign tokens, never of session tokens.
        detail = response.json()["detail"]
        assert "campaign token" in detail and "session" not in detail, detail
        if header is None or header.startswith("Basic"):
            assert detail == "a campaign token is required (Authorization: Bearer <token>)"


NOWHERE = {"kind": "weekly", "days": ["mon"], "timezone": "Nowhere/Atlantis"}


def test_refusals_are_problems_with_stable_codes(client: httpx.Client) -> None:
    campaign = Campaign(client)
    other = Campaign(client)
    campaign.add("r1")
    cases: list[tuple[httpx.Response, int, str]] = [
        (campaign.call("GET", "", other.gm), 403, "forbidden"),
        (campaign.call("POST", "/tokens", campaign.gm, json={"role": "player", "runner": "zz"}),
         404, "unknown_runner"),
        (campaign.call("POST", "/runners", campaign.gm,
                       json={"runner": "r1", "character": SHEETS["r1"]}), 409, "runner_exists"),
        (campaign.call("POST", "/runners", campaign.gm, json={"runner": "r2"}),
         422, "invalid_request"),
        (campaign.call("POST", "/runners", campaign.gm, content=b"{not json"),
         422, "invalid_request"),
        (campaign.call("POST", "/rolls", campaign.gm, json={"expression": "101d6"}),
         422, "too_many_dice"),
        (campaign.call("POST", "/choices", campaign.gm,
                       json={"runner": "r1", "activity": "gather", "downtime": 5}),
         422, "wrong_downtime"),
        (campaign.call("POST", "/runs/nope/end", campaign.gm, json={}), 404, "unknown_run"),
        (campaign.call("POST", "/runs/bad%20id/end", campaign.gm, json={}),
         422, "invalid_request"),
        # The run is the path's: a body naming one too is refused, not merged.
        (campaign.call("POST", "/runs/nope/end", campaign.gm, json={"run": "run-1"}),
         422, "invalid_request"),
        (campaign.call("POST", "/advance", campaign.gm, json={"through": 500}),
         422, "invalid_request"),
        (campaign.call("GET", "/ticks", campaign.gm, params={"limit": 0}), 422, "invalid_request"),
        # Schema-valid, but no such time zone: a constraint stated in words.
        (campaign.call("PUT", "/cadence", campaign.gm, json={"cadence": NOWHERE}),
         422, "constraint_violation"),
        (campaign.call("POST", "/choices", campaign.gm,
                       json={"runner": "r1", "activity": "gather", "seen_version": 1}),
         409, "version_conflict"),
    ]  # fmt: skip
    for response, status, code in cases:
        assert (response.status_code, response.json()["code"]) == (status, code), response.text
        assert response.headers["content-type"].startswith("application/problem+json")
    ended = campaign.ok("POST", "/end", json={"reason": "the clearing burned"})
    assert ended["view"]["ended"] is True
    late = campaign.call("POST", "/advance", campaign.gm, json={})
    assert late.status_code == 422 and late.json()["code"] == "campaign_ended"
    assert campaign.ok("GET", "/ticks")["ticks"] == []


def test_campaigns_are_run_over_graphql_with_problems_as_results(client: httpx.Client) -> None:
    def gql(query: str, **variables: Any) -> dict[str, Any]:
        response = client.post("/graphql", json={"query": query, "variables": variables})
        assert response.status_code == 200 and "errors" not in response.json(), response.text
        data: dict[str, Any] = response.json()["data"]
        return data

    created = gql(
        """mutation($cadence: CadenceInput, $rules: CampaignRulesInput) {
          createCampaign(name: "Glade", supplies: 30, cadence: $cadence, rules: $rules) {
          ... on CreatedCampaign { campaignId gmToken version }
          ... on Problem { code message } } }""",
        cadence={"manual": True},
        rules={"avoidStep": 3},
    )["createCampaign"]
    cid, gm = created["campaignId"], created["gmToken"]
    for runner in ("r1", "r2"):
        added = gql(
            """mutation($id: ID!, $t: String!, $r: String!, $c: MazeCharacterInput!) {
              addCampaignRunner(id: $id, token: $t, runner: $r, character: $c) {
              __typename ... on CampaignCommandResult { version } ... on Problem { code } } }""",
            id=cid, t=gm, r=runner, c=SHEETS[runner],
        )["addCampaignRunner"]  # fmt: skip
        assert added["__typename"] == "CampaignCommandResult", added
    r1 = gql(
        """mutation($id: ID!, $t: String!) { issueCampaignToken(id: $id, token: $t,
          role: PLAYER, runner: "r1") { ... on CampaignToken { token runner } } }""",
        id=cid,
        t=gm,
    )["issueCampaignToken"]
    assert r1["runner"] == "r1"
    choose = """mutation($id: ID!, $t: String!, $r: String!) { chooseCampaignActivity(
      id: $id, token: $t, runner: $r, activity: GATHER) {
      __typename ... on CampaignCommandResult { events { type } } ... on Problem { code } } }"""
    mine = gql(choose, id=cid, t=r1["token"], r="r1")["chooseCampaignActivity"]
    assert mine["events"][0]["type"] == "ActivityChosen"
    theirs = gql(choose, id=cid, t=r1["token"], r="r2")["chooseCampaignActivity"]
    assert theirs == {"__typename": "Problem", "code": "forbidden"}
    refused = gql(
        """mutation($id: ID!, $t: String!) { advanceCampaign(id: $id, token: $t) {
          ... on Problem { code } } }""",
        id=cid,
        t=r1["token"],
    )["advanceCampaign"]
    assert refused == {"code": "forbidden"}
    advanced = gql(
        """mutation($id: ID!, $t: String!) { advanceCampaign(id: $id, token: $t,
          through: 2) { ... on CampaignCommandResult { version
          events { ... on DowntimePassedEvent { index } } } } }""",
        id=cid,
        t=gm,
    )["advanceCampaign"]
    assert [e["index"] for e in advanced["events"]] == [0, 1]
    looked = gql(
        """query($id: ID!, $t: String!) { campaign(id: $id, token: $t) {
          ... on CampaignView { role runner version view { downtime supplies } } } }""",
        id=cid,
        t=r1["token"],
    )["campaign"]
    assert looked["runner"] == "r1" and looked["view"]["downtime"] == 2
    assert looked["view"]["supplies"] is None  # the GM's alone
    ticks = gql(
        """query($id: ID!, $t: String!) { campaignTicks(id: $id, token: $t, limit: 1) {
          ... on CampaignTickPage { nextAfter ticks { ...DowntimePassedEventFields } } } }
        """
        + fragments("DowntimePassedEvent"),
        id=cid,
        t=r1["token"],
    )["campaignTicks"]
    assert ticks["ticks"][0]["index"] == 0 and ticks["nextAfter"]
    assert not supplies_numbers([as_rest(t, "DowntimePassedEvent") for t in ticks["ticks"]])
    bad = gql(
        """mutation($id: ID!, $t: String!) { setCampaignCadence(id: $id, token: $t,
          cadence: {interval: {everySeconds: 0}}) { ... on Problem { code field } } }""",
        id=cid,
        t=gm,
    )["setCampaignCadence"]
    assert bad["code"] == "invalid_request"
    weekly = gql(
        """mutation($id: ID!, $t: String!) { setCampaignCadence(id: $id, token: $t,
          cadence: {weekly: {days: [MON, FRI], at: "19:30"}}) {
          ... on CampaignCommandResult { view { cadence {
            ... on CampaignWeeklyCadence { kind days at } } } } } }""",
        id=cid,
        t=gm,
    )["setCampaignCadence"]
    assert weekly["view"]["cadence"] == {"kind": "weekly", "days": ["mon", "fri"], "at": "19:30"}
    adjusted = gql(
        """mutation($id: ID!, $t: String!) { adjustCampaign(id: $id, token: $t,
          adjustment: {supplies: {delta: -5, reason: "rats"}}) {
          ... on CampaignCommandResult { events { type ... on SuppliesAdjustedEvent {
            delta after reason } } } } }""",
        id=cid,
        t=gm,
    )["adjustCampaign"]
    assert adjusted["events"] == [
        {"type": "SuppliesAdjusted", "delta": -5, "after": adjusted["events"][0]["after"],
         "reason": "rats"}
    ]  # fmt: skip


@pytest.fixture(scope="module")
def clock_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server started as `make run` starts it: with its Celery worker and beat."""
    root: Path = tmp_path_factory.mktemp("daedalus-clock")
    with serve(root, {}, worker=True) as (base_url, _log):
        yield base_url


def test_a_scheduled_campaign_ticks_on_its_own(clock_url: str) -> None:
    with httpx.Client(base_url=clock_url, timeout=30.0) as client:
        campaign = Campaign(client, supplies=60)
        campaign.add("r1")
        version = campaign.ok("GET", "")["version"]
        with subscribe(clock_url, campaign.id, campaign.spectator, version) as ws:
            # A manual campaign: nothing happens until its cadence says so.
            with pytest.raises(TimeoutError):
                receive(ws, 1, timeout=2)
            cadence = {"cadence": {"kind": "interval", "every_seconds": 1}}
            campaign.ok("PUT", "/cadence", json=cadence)
            (cadence_set,) = receive(ws, 1)
            assert cadence_set["type"] == "CadenceSet"
            # The worker's first start can take a while; then a tick a second.
            ticks = receive(ws, 1, timeout=60) + receive(ws, 2, timeout=10)
        assert [t["type"] for t in ticks] == ["DowntimePassed"] * 3
        assert [t["index"] for t in ticks] == [0, 1, 2]
        assert all(t["due_at"] is not None for t in ticks)
        assert not supplies_numbers(ticks)
        campaign.ok("PUT", "/cadence", json={"cadence": {"kind": "manual"}})
        time.sleep(1.5)  # a tick already claimed may still land
        settled = campaign.ok("GET", "")["view"]["downtime"]
        time.sleep(2.5)
        assert campaign.ok("GET", "")["view"]["downtime"] == settled
        assert campaign.ok("GET", "")["view"]["next_due_at"] is None


def test_a_players_command_id_never_stands_in_for_a_downtime(client: httpx.Client) -> None:
    campaign = Campaign(client)
    campaign.add("r1")
    # The clock records downtime k under the id `downtime-<k>`: a player's key that
    # spells the same must not pass for it.
    for index in range(3):
        body = {"runner": "r1", "activity": "gather", "command_id": f"downtime-{index}"}
        campaign.ok("POST", "/choices", campaign.players["r1"], json=body)
    advanced = campaign.ok("POST", "/advance", json={"through": 3})
    assert [e["index"] for e in advanced["events"]] == [0, 1, 2]
    assert campaign.view()["downtime"] == 3


def test_a_command_id_reused_for_another_command_is_a_409_over_rest_and_graphql(
    client: httpx.Client,
) -> None:
    campaign = Campaign(client, supplies=10)
    campaign.add("r1")
    key = "same-id-01"
    adjust = {"type": "supplies", "delta": 5, "command_id": key}
    first = campaign.ok("POST", "/adjustments", json=adjust)
    for method, path, body in (
        ("POST", "/end", {"reason": "x", "command_id": key}),
        ("POST", "/adjustments", {**adjust, "delta": 6}),
        ("POST", "/rolls", {"expression": "1d6", "command_id": key}),
    ):
        reused = campaign.call(method, path, campaign.gm, json=body)
        assert reused.status_code == 409, reused.text
        assert reused.json()["code"] == "idempotency_conflict"
    query = """mutation($id: ID!, $t: String!, $k: String) {
      endCampaign(id: $id, token: $t, reason: "x", commandId: $k) {
        __typename ... on CampaignCommandResult { duplicate } ... on Problem { code } } }"""
    variables = {"id": campaign.id, "t": campaign.gm, "k": key}
    body = client.post("/graphql", json={"query": query, "variables": variables}).json()
    assert body["data"]["endCampaign"] == {"__typename": "Problem", "code": "idempotency_conflict"}
    again = campaign.ok("POST", "/adjustments", json=adjust)
    assert again["duplicate"] and again["events"] == first["events"]
    looked = campaign.ok("GET", "")
    assert looked["version"] == first["version"]
    assert looked["view"]["supplies"] == 15 and looked["view"]["ended"] is False
    # A retried run start is still a retry, though the server names the run afresh each
    # time it builds the command (no `run` in the body): the request is the same.
    start = {"runners": ["r1"], "command_id": "start-run-01"}
    started = campaign.ok("POST", "/runs", json=start)
    retried = campaign.ok("POST", "/runs", json=start)
    assert retried["duplicate"] and retried["events"] == started["events"]


def test_the_gm_renews_their_token_for_a_long_season(client: httpx.Client) -> None:
    campaign = Campaign(client)
    renewed = campaign.ok("POST", "/tokens", json={"role": "gm", "ttl_seconds": 30 * 86400})
    assert renewed["role"] == "gm" and renewed["token"] != campaign.gm
    campaign.ok(
        "POST", "/runners", renewed["token"], json={"runner": "r1", "character": SHEETS["r1"]}
    )
    too_long = campaign.call(
        "POST", "/tokens", campaign.gm, json={"role": "gm", "ttl_seconds": 31 * 86400}
    )
    assert too_long.status_code == 422
    campaign.add("r2")
    refused = campaign.call("POST", "/tokens", campaign.players["r2"], json={"role": "gm"})
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"


def test_a_campaign_token_never_opens_a_session(client: httpx.Client) -> None:
    campaign = Campaign(client)
    headers = {"Authorization": f"Bearer {campaign.gm}"}
    for path in (
        f"/v1/sessions/campaign:{campaign.id}",
        f"/v1/sessions/campaign:{campaign.id}/events",
    ):
        response = client.get(path, headers=headers)
        assert response.status_code == 404, response.text
        assert response.json()["code"] == "session_not_found"


def session_of(client: httpx.Client) -> tuple[str, str]:
    """A fresh labyrinth session's id and GM token."""
    party = [{"id": "p1", "name": "Ash"}]
    created = client.post("/v1/sessions", json={"preset": "standard26", "party": party})
    assert created.status_code == 201, created.text
    return created.json()["session_id"], created.json()["gm_token"]


def test_history_cursors_are_integers_for_campaigns_and_sessions_alike(
    client: httpx.Client,
) -> None:
    campaign = Campaign(client)
    session_id, session_gm = session_of(client)

    def session_events(params: dict[str, str]) -> httpx.Response:
        headers = {"Authorization": f"Bearer {session_gm}"}
        return client.get(f"/v1/sessions/{session_id}/events", headers=headers, params=params)

    readers = {
        "campaign events": lambda params: campaign.call(
            "GET", "/events", campaign.gm, params=params
        ),
        "campaign ticks": lambda params: campaign.call("GET", "/ticks", campaign.gm, params=params),
        "session events": session_events,
    }
    for what, read in readers.items():
        for name in ("after", "limit"):
            for raw in ("abc", "1.5", "", "0x10", "²", "1e3"):
                response = read({name: raw})
                assert response.status_code == 422, (what, raw, response.text)
                problem = response.json()
                assert problem["code"] == "invalid_request"
                assert problem["detail"] == f"query parameter {name!r} must be an integer"
                assert problem["errors"] == [
                    {"loc": ["query", name], "msg": "must be an integer", "type": "int_parsing"}
                ]
        for raw in ("-1", str(2**62 + 1), "9" * 5000):
            response = read({"after": raw})
            assert response.status_code == 422, (what, raw[:30], response.text)
            assert response.json()["errors"][0]["type"] == "int_range"
            assert "must be an integer in [0, " in response.json()["detail"]
        assert read({"after": "0", "limit": "1"}).status_code == 200, what


def test_advance_errors_name_the_field_as_every_validation_error_does(
    client: httpx.Client,
) -> None:
    campaign = Campaign(client)
    for through in (1000, 0):  # past the 100 a request may pass; below the first downtime
        response = campaign.call("POST", "/advance", campaign.gm, json={"through": through})
        assert response.status_code == 422 and response.json()["code"] == "invalid_request"
        assert [e["loc"] for e in response.json()["errors"]] == [["through"]], response.text


BAD_DICE = {"ready": 8, "surroundings": 6, "navigation": 6, "interaction": 6}


@pytest.mark.parametrize(
    ("sheet", "codes"),
    [
        ({"name": "Ash", "abilities": BAD_DICE}, ["dice_not_distinct"]),
        ({**SHEETS["r1"], "skills": [{"name": "Nope", "modifier": 2}]}, ["unknown_skill"]),
        ({**SHEETS["r3"], "traits": ["Farmer", "Gardener"]}, ["unknown_trait"]),
        (
            {"name": "Ash", "abilities": BAD_DICE, "skills": [{"name": "Nope", "modifier": 2}]},
            ["dice_not_distinct", "unknown_skill"],
        ),
    ],
)
def test_a_runner_sheet_is_checked_as_the_maze_api_checks_it(
    client: httpx.Client, sheet: dict[str, Any], codes: list[str]
) -> None:
    campaign = Campaign(client)
    checked = client.post("/v1/maze/characters/validate", json=maze_sheet(sheet)).json()
    assert [i["code"] for i in checked["issues"]] == codes
    refused = campaign.call(
        "POST", "/runners", campaign.gm, json={"runner": "r1", "character": sheet}
    )
    assert refused.status_code == 422, refused.text
    assert refused.headers["content-type"].startswith("application/problem+json")
    problem = refused.json()
    assert problem["code"] == codes[0] and problem["issues"] == checked["issues"]
    assert all(code in problem["detail"] for code in codes)
    added = client.post(
        "/graphql",
        json={
            "query": """mutation($id: ID!, $t: String!, $c: MazeCharacterInput!) {
              addCampaignRunner(id: $id, token: $t, runner: "r1", character: $c) {
              __typename ... on Problem { code message field } } }""",
            "variables": {"id": campaign.id, "t": campaign.gm, "c": sheet},
        },
    ).json()["data"]["addCampaignRunner"]
    assert added == {
        "__typename": "Problem",
        "code": codes[0],
        "message": problem["detail"],
        "field": "character",
    }
    assert campaign.view()["runners"] == []


def test_every_sheet_these_tests_add_is_valid_for_the_maze_api(client: httpx.Client) -> None:
    for sheet in SHEETS.values():
        checked = client.post("/v1/maze/characters/validate", json=maze_sheet(sheet)).json()
        assert checked == {"valid": True, "issues": []}, sheet


def maze_sheet(sheet: dict[str, Any]) -> dict[str, Any]:
    """A campaign's sheet as The Maze's validation takes it (the same sheet)."""
    return {"character": sheet}


def test_treatment_names_an_injury_by_its_id_from_the_view(client: httpx.Client) -> None:
    campaign = Campaign(client)
    campaign.add("r1", "r2")
    campaign.ok("POST", "/adjustments", json={"type": "injury", "runner": "r1", "injury": "minor"})
    (injury,) = campaign.view(campaign.players["r2"])["runners"][0]["injuries"]
    assert injury["injury"] == "minor" and injury["id"] == "i0-1"
    by_name = {"runner": "r2", "activity": "treat", "target_runner": "r1", "target_injury": "minor"}
    refused = campaign.call("POST", "/choices", campaign.players["r2"], json=by_name)
    assert refused.status_code == 422 and refused.json()["code"] == "unknown_injury"
    assert "`injuries[].id` in the campaign view" in refused.json()["detail"]
    by_id = {**by_name, "target_injury": injury["id"]}
    chosen = campaign.ok("POST", "/choices", campaign.players["r2"], json=by_id)
    assert chosen["view"]["choices"]["r2"]["target_injury"] == "i0-1"


def test_graphql_versions_and_counts_past_32_bits_get_the_apis_own_refusals(
    client: httpx.Client,
) -> None:
    def gql(query: str, **variables: Any) -> Any:
        response = client.post("/graphql", json={"query": query, "variables": variables})
        assert response.status_code == 200 and "errors" not in response.json(), response.text
        (answer,) = response.json()["data"].values()
        return answer

    big = 2**31
    problem = "... on Problem { code field message }"
    created = gql(f'mutation {{ createCampaign(name: "G", supplies: {big}) {{ {problem} }} }}')
    assert (created["code"], created["field"]) == ("invalid_request", "supplies")
    campaign = Campaign(client)
    campaign.add("r1")
    ids = f'id: "{campaign.id}", token: "{campaign.gm}"'
    cases = {
        f"advanceCampaign({ids}, through: {big})": ("invalid_request", "through"),
        f'chooseCampaignActivity({ids}, runner: "r1", activity: REST, downtime: {big})': (
            "invalid_request",
            "downtime",
        ),
        f'chooseCampaignActivity({ids}, runner: "r1", activity: REST, seenVersion: {big})': (
            "version_conflict",
            None,
        ),
        f"issueCampaignToken({ids}, role: SPECTATOR, ttlSeconds: {big})": (
            "invalid_request",
            "ttlSeconds",  # as the argument is spelled (GraphQL's camelCase)
        ),
    }
    for call, (code, field) in cases.items():
        answer = gql(f"mutation {{ {call} {{ {problem} }} }}")
        assert (answer["code"], answer["field"]) == (code, field), (call, answer)
    # A token argument left empty says where the token goes.
    empty = gql(f'{{ campaign(id: "{campaign.id}", token: "") {{ {problem} }} }}')
    assert empty["code"] == "invalid_token"
    assert empty["message"] == "a campaign token is required (the `token` argument)"


def test_a_partner_dying_in_the_maze_ends_buddy_for_the_one_left(client: httpx.Client) -> None:
    """BUDDY: "If one partner dies, becomes incapacitated, or if a falling out occurs,
    character loses this trait." """
    campaign = Campaign(client)
    for runner, name, partner in (("b1", "Dell", "Emry"), ("b2", "Emry", "Dell")):
        sheet = {
            "name": name,
            "abilities": ABILITIES,
            "traits": ["Party", "Buddy"],
            "buddies": [partner],
        }
        campaign.ok("POST", "/runners", json={"runner": runner, "character": sheet})
    campaign.ok("POST", "/runs", json={"run": "deep", "runners": ["b1"]})
    ended = campaign.ok(
        "POST", "/runs/deep/end", json={"results": [{"runner": "b1", "died": True}]}
    )
    assert [e["type"] for e in ended["events"]] == ["RunEnded", "BuddyLost"]
    assert ended["events"][1]["runner_ids"] == ["b1", "b2"]
    left = next(r for r in campaign.view()["runners"] if r["id"] == "b2")
    assert (left["character"]["traits"], left["character"]["buddies"]) == (["Party"], [])
