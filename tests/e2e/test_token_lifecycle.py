"""The role-token lifecycle over a real server: expiry shown, renewal, revocation.

Every token response says when the token expires; the GM renews a session GM token and
may create a table with a longer lifetime; the GM revokes one token, a member's, a
role's or every token (and keeps a fresh GM token); removing a campaign runner revokes
theirs; an open subscription of a revoked token is told so and completed within a second.
"""

from __future__ import annotations

import json
import time
from datetime import datetime
from typing import Any

import httpx
import pytest

from tests.e2e.test_campaigns_api import Campaign
from tests.e2e.test_campaigns_api import subscribe as subscribe_campaign
from tests.e2e.test_sessions_api import PARTY, Table, _subscribe

pytestmark = pytest.mark.e2e


def _epoch(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def _status(table: Table, token: str) -> tuple[int, str | None]:
    answer = table.get("", token)
    return answer.status_code, (None if answer.status_code == 200 else answer.json()["code"])


def _revoke(table: Table, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    answer = table.post("revocations", body, token or table.gm)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def test_every_token_response_says_its_id_and_when_it_expires(client: httpx.Client) -> None:
    before = time.time()
    created = client.post(
        "/v1/sessions",
        json={"preset": "standard_deck", "party": PARTY, "token_ttl_seconds": 3 * 24 * 3600},
    )
    assert created.status_code == 201, created.text
    body = created.json()
    assert abs(_epoch(body["expires_at"]) - (before + 3 * 24 * 3600)) < 60
    assert body["gm_token_id"] != body["spectator_token_id"]
    headers = {"Authorization": f"Bearer {body['gm_token']}"}
    issued = client.post(
        f"/v1/sessions/{body['session_id']}/tokens",
        json={"role": "player", "member": "p1", "ttl_seconds": 600},
        headers=headers,
    ).json()
    assert abs(_epoch(issued["expires_at"]) - (time.time() + 600)) < 60
    assert len(issued["token_id"]) == 16
    campaign = client.post("/v1/campaigns", json={"name": "Glade", "token_ttl_seconds": 7200})
    assert abs(_epoch(campaign.json()["expires_at"]) - (time.time() + 7200)) < 60


@pytest.mark.parametrize("ttl", [59, 30 * 24 * 3600 + 1])
def test_a_token_lifetime_out_of_bounds_is_refused(client: httpx.Client, ttl: int) -> None:
    body = {"preset": "standard_deck", "party": PARTY, "token_ttl_seconds": ttl}
    refused = client.post("/v1/sessions", json=body)
    assert (refused.status_code, refused.json()["code"]) == (422, "invalid_request")


def test_the_gm_renews_their_session_token_and_a_player_cannot(client: httpx.Client) -> None:
    table = Table(client)
    renewed = table.post("tokens", {"role": "gm", "ttl_seconds": 14 * 24 * 3600}, table.gm)
    assert renewed.status_code == 201, renewed.text
    assert renewed.json()["role"] == "gm"
    assert abs(_epoch(renewed.json()["expires_at"]) - (time.time() + 14 * 24 * 3600)) < 60
    as_gm = table.get("", renewed.json()["token"], view="gm")
    assert as_gm.status_code == 200 and "cards" in as_gm.json()["view"]
    by_player = table.post("tokens", {"role": "gm"}, table.players["p1"])
    assert (by_player.status_code, by_player.json()["code"]) == (403, "forbidden")


def test_one_revoked_token_is_refused_and_the_others_are_not(client: httpx.Client) -> None:
    table = Table(client)
    first = table.post("tokens", {"role": "player", "member": "p1"}, table.gm).json()
    second = table.post("tokens", {"role": "player", "member": "p1"}, table.gm).json()
    assert _revoke(table, {"token_id": first["token_id"]}) == {
        "revoked": f"token:{first['token_id']}"
    }
    assert _status(table, first["token"]) == (401, "token_revoked")
    assert _status(table, second["token"]) == (200, None)
    refused = table.post("commands", {"type": "SkipDisarm", "player": "p1"}, first["token"])
    events = table.get("/events", first["token"])
    assert refused.json()["code"] == events.json()["code"] == "token_revoked"


def test_a_members_tokens_are_revoked_and_a_new_one_works(client: httpx.Client) -> None:
    table = Table(client)
    _revoke(table, {"member": "p2"})
    assert _status(table, table.players["p2"]) == (401, "token_revoked")
    assert _status(table, table.players["p1"]) == (200, None)
    fresh = table.issue({"role": "player", "member": "p2"})
    assert _status(table, fresh) == (200, None)
    unknown = table.post("revocations", {"member": "nobody"}, table.gm)
    assert (unknown.status_code, unknown.json()["code"]) == (422, "unknown_player")


def test_revoking_every_token_hands_the_gm_a_fresh_one(client: httpx.Client) -> None:
    table = Table(client)
    result = _revoke(table, {})
    assert result["revoked"] == "all"
    fresh = result["gm_token"]["token"]
    for token in (table.gm, table.spectator, *table.players.values()):
        assert _status(table, token) == (401, "token_revoked")
    assert _status(table, fresh) == (200, None)
    assert table.get("", fresh, view="gm").status_code == 200


def test_only_the_gm_revokes(client: httpx.Client) -> None:
    table = Table(client)
    refused = table.post("revocations", {"member": "p1"}, table.players["p2"])
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    two = table.post("revocations", {"member": "p1", "role": "gm"}, table.gm)
    assert (two.status_code, two.json()["code"]) == (422, "constraint_violation")


def test_a_revocation_in_one_session_leaves_another_alone(client: httpx.Client) -> None:
    one, other = Table(client), Table(client)
    _revoke(one, {"role": "player"})
    assert _status(one, one.players["p1"]) == (401, "token_revoked")
    assert _status(other, other.players["p1"]) == (200, None)


def test_an_open_subscription_of_a_revoked_token_closes_within_a_second(
    client: httpx.Client, server_url: str
) -> None:
    table = Table(client)
    ws_url = server_url.replace("http", "ws", 1) + "/graphql"
    version = table.get("", table.gm).json()["version"]
    with _subscribe(ws_url, table.id, table.players["p3"], 0) as ws:
        for _ in range(version):  # the catch-up: the subscription is live
            assert json.loads(ws.recv(timeout=10))["type"] == "next"
        _revoke(table, {"member": "p3"})
        # Timed from the revocation's answer (it is stored by then), not from its send:
        # the request's own time on a loaded machine is not the subscription's to pay.
        revoked_at = time.monotonic()
        told = json.loads(ws.recv(timeout=5))
        completed = json.loads(ws.recv(timeout=5))
        took = time.monotonic() - revoked_at
    assert told["payload"]["data"]["sessionEvents"]["code"] == "token_revoked"
    assert completed == {"id": "1", "type": "complete"}
    assert took < 1.0, f"closed {took:.2f} s after the revocation"


def test_removing_a_runner_revokes_their_campaign_tokens(
    client: httpx.Client, server_url: str
) -> None:
    campaign = Campaign(client)
    campaign.add("r1", "r2")
    with subscribe_campaign(server_url, campaign.id, campaign.players["r1"], 0) as ws:
        version = campaign.ok("GET", "")["version"]
        for _ in range(version):  # the catch-up: the subscription is live
            assert json.loads(ws.recv(timeout=10))["type"] == "next"
        campaign.ok("DELETE", "/runners/r1")
        # The removal itself may reach them first (it is theirs to see); then the refusal.
        shown = [json.loads(ws.recv(timeout=5))["payload"]["data"]["campaignEvents"]]
        if "code" not in shown[0]:
            shown.append(json.loads(ws.recv(timeout=5))["payload"]["data"]["campaignEvents"])
    assert shown[-1]["code"] == "token_revoked", shown
    assert [e["type"] for e in shown[:-1]] in ([], ["RunnerRemoved"])
    gone = campaign.call("GET", "", campaign.players["r1"])
    assert (gone.status_code, gone.json()["code"]) == (401, "token_revoked")
    assert campaign.call("GET", "", campaign.players["r2"]).status_code == 200
    revoked = campaign.ok("POST", "/revocations", json={"member": "r2"})
    assert revoked == {"revoked": "member:r2"}
    assert campaign.call("GET", "", campaign.players["r2"]).status_code == 401


def test_tokens_are_revoked_over_graphql_too(client: httpx.Client) -> None:
    table = Table(client)
    mutation = """mutation($id: ID!, $t: String!, $m: String) {
      revokeSessionTokens(id: $id, token: $t, member: $m) {
        __typename ... on Revocation { revoked gmToken { tokenId } }
        ... on Problem { code } } }"""
    variables = {"id": table.id, "t": table.gm, "m": "p1"}
    answer = client.post("/graphql", json={"query": mutation, "variables": variables}).json()
    revocation = answer["data"]["revokeSessionTokens"]
    assert revocation == {"__typename": "Revocation", "revoked": "member:p1", "gmToken": None}
    assert _status(table, table.players["p1"]) == (401, "token_revoked")


def test_a_campaign_runner_is_revoked_over_graphql_and_an_empty_one_revokes_nothing(
    client: httpx.Client,
) -> None:
    campaign = Campaign(client)
    campaign.add("r1", "r2")
    mutation = """mutation($id: ID!, $t: String!, $r: String) {
      revokeCampaignTokens(id: $id, token: $t, runner: $r) {
        __typename ... on Revocation { revoked } ... on Problem { code field message } } }"""

    def revoke(runner: str) -> dict[str, Any]:
        variables = {"id": campaign.id, "t": campaign.gm, "r": runner}
        answer = client.post("/graphql", json={"query": mutation, "variables": variables})
        done: dict[str, Any] = answer.json()["data"]["revokeCampaignTokens"]
        return done

    # "" names no runner: refused at the argument, not read as "every token".
    refused = revoke("")
    assert (refused["code"], refused["field"]) == ("invalid_request", "runner")
    assert refused["message"].startswith("runner:")
    for token in (campaign.gm, *campaign.players.values()):
        assert campaign.call("GET", "", token).status_code == 200
    assert revoke("r1") == {"__typename": "Revocation", "revoked": "member:r1"}
    assert campaign.call("GET", "", campaign.players["r1"]).status_code == 401
    assert campaign.call("GET", "", campaign.players["r2"]).status_code == 200


def test_a_revoked_token_is_refused_on_both_transports_for_views_and_commands(
    client: httpx.Client,
) -> None:
    # The revocation is read with the command, in its thread (api/usecases/run.py):
    # every table row, REST or GraphQL, session or campaign, goes through that read.
    table = Table(client)
    campaign = Campaign(client)
    campaign.add("r1")
    _revoke(table, {"member": "p1"})
    campaign.ok("POST", "/revocations", json={"member": "r1"})
    p1, r1 = table.players["p1"], campaign.players["r1"]
    sent = table.post("commands", {"type": "SkipDisarm", "player": "p1"}, p1)
    chosen = campaign.call("POST", "/choices", r1, json={"runner": "r1", "activity": "rest"})
    assert [r.status_code for r in (sent, chosen)] == [401, 401]
    assert [r.json()["code"] for r in (sent, chosen)] == ["token_revoked"] * 2
    queries = {
        "session": ("query($id: ID!, $t: String!) { session(id: $id, token: $t) "
                    "{ ... on Problem { code } } }", table.id, p1),
        "sendCommand": ("mutation($id: ID!, $t: String!) { sendCommand(id: $id, token: $t, "
                        'command: {skipDisarm: {player: "p1"}}) { ... on Problem { code } } }',
                        table.id, p1),
        "campaign": ("query($id: ID!, $t: String!) { campaign(id: $id, token: $t) "
                     "{ ... on Problem { code } } }", campaign.id, r1),
    }  # fmt: skip
    for field, (query, found, token) in queries.items():
        variables = {"id": found, "t": token}
        answer = client.post("/graphql", json={"query": query, "variables": variables}).json()
        assert answer["data"][field] == {"code": "token_revoked"}, (field, answer)
    # The others still act: the refusals are the revocation's, not the requests'.
    assert _status(table, table.players["p2"]) == (200, None)


def test_a_revoked_players_commands_are_refused_valid_retried_or_wrong_and_record_nothing(
    client: httpx.Client,
) -> None:
    # A session command's revocation check rides on its append script (a `guarded` row,
    # api/usecases/run.py); a command that never reaches the script (refused by the
    # rules, a retry answered from the store) is checked on its own before it answers.
    fresh, retried = Table(client), Table(client)
    tried: list[httpx.Response] = []
    for table in (fresh, retried):
        active = table.state()["active"]
        token = table.players[active]
        slot = table.get("", token).json()["view"]["river"][0]["slot"]
        flip = {"type": "FlipCard", "player": active, "card": slot, "command_id": "flip-one"}
        if table is retried:
            assert table.post("commands", flip, token).status_code == 200
        version = table.get("", table.gm).json()["version"]
        _revoke(table, {"member": active})
        tried += [
            table.post("commands", flip, token),  # valid (or recorded before the revocation)
            table.post("commands", {**flip, "card": "nope", "command_id": "flip-two"}, token),
        ]
        assert table.get("", table.gm).json()["version"] == version  # nothing recorded
    assert [(r.status_code, r.json()["code"]) for r in tried] == [(401, "token_revoked")] * 4
