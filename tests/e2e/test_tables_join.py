"""Joining a table by code, and listing the tenant's tables, over a real server."""

from __future__ import annotations

import threading
from typing import Any

import httpx
import pytest

from tests.e2e.test_campaigns_api import Campaign
from tests.e2e.test_sessions_api import Table

pytestmark = pytest.mark.e2e


def _code(table: Table, member: str, **body: Any) -> dict[str, Any]:
    made = table.post("join-codes", {"member": member, **body}, table.gm)
    assert made.status_code == 201, made.text
    result: dict[str, Any] = made.json()
    return result


def test_a_player_joins_a_seat_with_a_code_once(client: httpx.Client) -> None:
    table = Table(client)
    made = _code(table, "p2", token_ttl_seconds=3600)
    assert len(made["code"]) == 9 and made["code"][4] == "-"
    # Typed as a person would: lower case, no dash.
    joined = client.post("/v1/join", json={"code": made["code"].replace("-", "").lower()})
    assert joined.status_code == 201, joined.text
    body = joined.json()
    assert (body["kind"], body["session_id"], body["role"], body["member"]) == (
        "session",
        table.id,
        "player",
        "p2",
    )
    view = table.get("", body["token"])
    assert view.status_code == 200 and view.json()["member"] == "p2"
    again = client.post("/v1/join", json={"code": made["code"]})
    assert (again.status_code, again.json()["code"]) == (404, "join_code_not_found")


def test_racing_exchanges_of_one_code_give_exactly_one_token(client: httpx.Client) -> None:
    table = Table(client)
    code = _code(table, "p1")["code"]
    barrier = threading.Barrier(8)
    statuses: list[int] = []
    base = str(client.base_url)

    def exchange() -> None:
        with httpx.Client(base_url=base, timeout=30.0) as http:
            barrier.wait()
            statuses.append(http.post("/v1/join", json={"code": code}).status_code)

    threads = [threading.Thread(target=exchange) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(statuses) == [201] + [404] * 7


def test_join_codes_are_the_gms_to_make_for_real_seats(client: httpx.Client) -> None:
    table = Table(client)
    by_player = table.post("join-codes", {"member": "p1"}, table.players["p1"])
    assert (by_player.status_code, by_player.json()["code"]) == (403, "forbidden")
    unknown = table.post("join-codes", {"member": "p9"}, table.gm)
    assert (unknown.status_code, unknown.json()["code"]) == (422, "unknown_member")
    for junk in ("", "not-a-code", "0000-0000", "K7QF-M2XP-EXTRA"):
        refused = client.post("/v1/join", json={"code": junk})
        assert refused.status_code in (404, 422), (junk, refused.text)


def test_revoking_a_seat_kills_its_outstanding_codes(client: httpx.Client) -> None:
    table = Table(client)
    code = _code(table, "p3")["code"]
    assert table.post("revocations", {"member": "p3"}, table.gm).status_code == 200
    refused = client.post("/v1/join", json={"code": code})
    assert (refused.status_code, refused.json()["code"]) == (404, "join_code_not_found")
    fresh = _code(table, "p3")["code"]  # made after the revocation: it works
    assert client.post("/v1/join", json={"code": fresh}).status_code == 201


def test_a_runner_joins_a_campaign_by_code(client: httpx.Client) -> None:
    campaign = Campaign(client)
    campaign.add("r1")
    made = campaign.ok("POST", "/join-codes", json={"member": "r1"})
    joined = client.post("/v1/join", json={"code": made["code"]}).json()
    assert (joined["kind"], joined["campaign_id"], joined["member"]) == (
        "campaign",
        campaign.id,
        "r1",
    )
    assert campaign.call("GET", "", joined["token"]).status_code == 200


def test_the_tenants_tables_are_listed_newest_first_in_pages(client: httpx.Client) -> None:
    made = [Table(client).id for _ in range(5)]
    seen: list[str] = []
    cursor: str | None = None
    while True:
        params: dict[str, Any] = {"limit": 2} | ({"cursor": cursor} if cursor else {})
        page = client.get("/v1/sessions", params=params)
        assert page.status_code == 200, page.text
        body = page.json()
        assert len(body["sessions"]) <= 2
        seen += [s["session_id"] for s in body["sessions"]]
        cursor = body["next_cursor"]
        if cursor is None:
            break
    assert len(seen) == len(set(seen)), "no table twice across pages"
    positions = [seen.index(session_id) for session_id in made]
    assert positions == sorted(positions, reverse=True), "newest first"
    first = client.get("/v1/sessions", params={"limit": 1}).json()["sessions"][0]
    assert first["session_id"] == made[-1] and first["phase"] == "turn"
    campaign = Campaign(client)
    listed = client.get("/v1/campaigns", params={"limit": 1}).json()["campaigns"]
    assert listed[0]["campaign_id"] == campaign.id and listed[0]["name"] == "Glade"
    bad = client.get("/v1/sessions", params={"cursor": "nonsense"})
    assert (bad.status_code, bad.json()["code"]) == (422, "invalid_cursor")


def test_a_listed_session_says_what_a_gm_screen_needs_to_pick_it_up(
    client: httpx.Client,
) -> None:
    table = Table(client)
    listed = client.get("/v1/sessions", params={"limit": 1}).json()["sessions"][0]
    assert listed["session_id"] == table.id
    assert listed["labyrinth"] and listed["version"] >= 1
    assert set(listed) == {"session_id", "created_at", "labyrinth", "phase", "version"}


def test_join_codes_and_listing_answer_the_same_over_graphql(client: httpx.Client) -> None:
    table = Table(client)

    def gql(query: str, **variables: Any) -> dict[str, Any]:
        answer = client.post("/graphql", json={"query": query, "variables": variables})
        assert answer.status_code == 200 and "errors" not in answer.json(), answer.text
        data: dict[str, Any] = answer.json()["data"]
        return data

    made = gql(
        """mutation($id: ID!, $t: String!) { createSessionJoinCode(id: $id, token: $t,
        member: "p1") { __typename ... on JoinCode { code member expiresAt } } }""",
        id=table.id,
        t=table.gm,
    )["createSessionJoinCode"]
    assert made["__typename"] == "JoinCode" and made["member"] == "p1"
    join = """mutation($c: String!) { joinTable(code: $c) { __typename
      ... on JoinedTable { kind sessionId member token expiresAt }
      ... on Problem { code } } }"""
    joined = gql(join, c=made["code"])["joinTable"]
    assert (joined["kind"], joined["sessionId"], joined["member"]) == ("SESSION", table.id, "p1")
    assert table.get("", joined["token"]).status_code == 200
    assert gql(join, c=made["code"])["joinTable"] == {
        "__typename": "Problem",
        "code": "join_code_not_found",
    }
    listed = gql(
        "{ sessions(limit: 1) { ... on SessionList { sessions { sessionId phase } nextCursor } } }"
    )["sessions"]
    assert listed["sessions"][0]["sessionId"] == table.id and listed["nextCursor"]
