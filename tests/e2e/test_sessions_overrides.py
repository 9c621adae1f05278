"""GM overrides through the running server: accepted from the GM and shown to the table
redacted, refused (403) from players and spectators, bad ones answered with stable codes."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.e2e.test_sessions_api import (
    LABEL,
    Table,
    _next_events,
    _subscribe,
    assert_no_hidden_card,
)

pytestmark = pytest.mark.e2e

WHY = "table ruling"


def face_down(state: dict[str, Any]) -> list[str]:
    """Slot ids of the face-down river cards, from the GM view."""
    by_card = {card: slot for slot, card in state["slots"].items()}
    return [by_card[c] for c in state["river"] if c not in state["face_up"]]


def latest(table: Table, token: str, kind: str) -> dict[str, Any]:
    """The viewer's last event of type `kind`."""
    return next(e for e in reversed(table.events(token)) if e["type"] == kind)


def test_a_gm_reveal_is_shown_to_the_table_and_a_moved_card_stays_unseen(
    client: httpx.Client,
) -> None:
    table = Table(client)
    state = table.state()
    shown_slot, moved_slot = face_down(state)[:2]
    shown_card, moved_card = state["slots"][shown_slot], state["slots"][moved_slot]
    shown_label = state["cards"][shown_card]["label"]
    moved_label = state["cards"][moved_card]["label"]

    revealed = table.send({"type": "RevealRiverCard", "card": shown_slot, "reason": WHY})
    assert [e["type"] for e in revealed["events"]] == ["CardRevealedByGm"]
    seen = latest(table, table.players["p2"], "CardRevealedByGm")
    assert seen["card"] == {
        "kind": state["cards"][shown_card]["kind"],
        "label": shown_label,
        "slot": shown_slot,
    }
    assert seen["reason"] == WHY
    watched = latest(table, table.spectator, "CardRevealedByGm")
    assert watched["card"]["label"] == shown_label and "slot" not in watched["card"]
    assert_no_hidden_card(table, [table.events(t) for t in table.players.values()])
    river = table.get("", table.players["p1"]).json()["view"]["river"]
    assert {"face_up": True, "label": shown_label}.items() <= next(
        i for i in river if i["slot"] == shown_slot
    ).items()

    moved = {"type": "MoveRiverCard", "card": moved_slot, "to": "deck_shuffled", "refill": True}
    table.send({**moved, "reason": WHY})
    for token in table.players.values():
        event = latest(table, token, "RiverCardMovedByGm")
        assert event["card"] == {"face_up": False, "slot": moved_slot}
        assert event["destination"] == "deck_shuffled" and "deck" not in event
    gm_event = latest(table, table.gm, "RiverCardMovedByGm")
    assert gm_event["card"]["card"] == moved_card and gm_event["deck"]  # the GM sees it all
    outputs: list[Any] = [table.events(t) for t in [*table.players.values(), table.spectator]]
    outputs += [table.get("", t).json() for t in [*table.players.values(), table.spectator]]
    assert_no_hidden_card(table, outputs)
    if moved_label != shown_label and LABEL.fullmatch(moved_label):
        assert moved_label not in json.dumps(outputs, ensure_ascii=False)


def test_gm_member_turn_and_score_overrides_reach_every_viewer(client: httpx.Client) -> None:
    table = Table(client)
    gone = table.state()["active"]
    result = table.send(
        {"type": "OverrideMember", "member": gone, "in_play": False, "reason": "left early"}
    )
    assert [e["type"] for e in result["events"]][:2] == ["MemberOverridden", "TurnOverridden"]
    state = table.state()
    assert state["active"] != gone and state["out_of_play"] == [gone]
    for token in [*table.players.values(), table.spectator]:
        view = table.get("", token).json()["view"]
        assert view["out_of_play"] == [gone] and view["active"] == state["active"]
        overridden = latest(table, token, "MemberOverridden")
        assert overridden == {
            **overridden,
            "member": gone,
            "in_play": False,
            "reason": "left early",
        }
    nxt = next(p for p in state["order"] if p not in (gone, state["active"]))
    table.send({"type": "OverrideTurn", "next_player": nxt, "reason": WHY})
    assert table.state()["active"] == nxt
    table.send({"type": "OverrideScore", "right_paths": 3, "monster_points": 1, "reason": WHY})
    view = table.get("", table.spectator).json()["view"]
    assert (view["right_paths"], view["monster_points"]) == (3, 1)
    table.send({"type": "OverrideActions", "locked": ["forge_a_path"], "reason": WHY})
    assert table.get("", table.players[nxt]).json()["view"]["locked_actions"] == ["forge_a_path"]


OVERRIDES: list[dict[str, Any]] = [
    {"type": "OverrideTurn", "reason": WHY},
    {"type": "OverrideScore", "right_paths": 4, "reason": WHY},
    {"type": "OverrideActions", "locked": [], "action_taken": False, "reason": WHY},
]


@pytest.mark.parametrize("role", ["player", "spectator"])
def test_players_and_spectators_cannot_override(client: httpx.Client, role: str) -> None:
    table = Table(client)
    state = table.state()
    active = state["active"]
    token = table.players[active] if role == "player" else table.spectator
    version = table.get("", table.gm).json()["version"]
    bodies: list[dict[str, Any]] = [
        *OVERRIDES,
        {"type": "OverrideMember", "member": active, "asleep_turns": 0, "reason": WHY},
        {"type": "RevealRiverCard", "card": face_down(state)[0], "reason": WHY},
        {"type": "MoveRiverCard", "card": face_down(state)[0], "to": "game", "reason": WHY},
    ]
    for body in bodies:
        refused = table.post("commands", body, token)
        assert refused.status_code == 403, (body, refused.text)
        assert refused.json()["code"] == "forbidden"
        assert refused.headers["content-type"].startswith("application/problem+json")
    assert table.get("", table.gm).json()["version"] == version  # nothing was recorded


def test_bad_overrides_are_refused_with_stable_codes(client: httpx.Client) -> None:
    table = Table(client)
    state = table.state()
    slot = face_down(state)[0]
    label = state["cards"][state["slots"][slot]]["label"]
    cases: list[tuple[dict[str, Any], str]] = [
        ({"type": "OverrideTurn"}, "invalid_request"),
        ({"type": "OverrideTurn", "reason": f"the {label} is cursed"}, "reason_names_a_card"),
        ({"type": "OverrideTurn", "next_player": "p9", "reason": WHY}, "unknown_player"),
        ({"type": "OverrideMember", "member": "p1", "reason": WHY}, "invalid_override"),
        ({"type": "OverrideScore", "monster_points": 2, "reason": WHY}, "invalid_override"),
        ({"type": "OverrideTrap", "row": 0, "reason": WHY}, "no_pending_trap"),
        ({"type": "RevealRiverCard", "card": "nope", "reason": WHY}, "unknown_card"),
        ({"type": "MoveRiverCard", "card": slot, "to": "hand", "reason": WHY}, "invalid_request"),
        ({"type": "OverrideActions", "locked": ["wake_player"], "reason": WHY}, "invalid_override"),
    ]
    for body, code in cases:
        response = table.post("commands", body, table.gm)
        assert response.status_code == 422, (body, response.text)
        assert response.json()["code"] == code, (body, response.text)
    for member in ("p1", "p2"):
        table.send({"type": "OverrideMember", "member": member, "in_play": False, "reason": WHY})
    last = table.post(
        "commands",
        {"type": "OverrideMember", "member": "p3", "in_play": False, "reason": WHY},
        table.gm,
    )
    assert last.status_code == 422 and last.json()["code"] == "no_member_in_play"


GQL_TURN = """mutation($id: ID!, $t: String!, $r: String!, $next: String) {
  overrideTurn(id: $id, token: $t, reason: $r, nextPlayer: $next) {
    __typename ... on CommandResult { version events { version type }
      view { ... on LabyrinthGmView { active } } } ... on Problem { code message } } }"""
GQL_MOVE = """mutation($id: ID!, $t: String!, $c: String!, $to: RiverDestination!, $r: String!) {
  moveRiverCard(id: $id, token: $t, card: $c, to: $to, reason: $r, refill: true) {
    __typename ... on CommandResult { version events { version type } }
    ... on Problem { code field } } }"""


def test_overrides_over_graphql_are_the_gms_alone_and_stream_to_players(
    client: httpx.Client, server_url: str
) -> None:
    def gql(query: str, **variables: Any) -> dict[str, Any]:
        response = client.post("/graphql", json={"query": query, "variables": variables})
        assert response.status_code == 200 and "errors" not in response.json(), response.text
        data: dict[str, Any] = response.json()["data"]
        return data

    table = Table(client)
    state = table.state()
    player = table.players[state["active"]]
    for token in (player, table.spectator):
        refused = gql(GQL_TURN, id=table.id, t=token, r=WHY)["overrideTurn"]
        assert refused["__typename"] == "Problem" and refused["code"] == "forbidden"
    # An unknown destination is no `RiverDestination`: the schema refuses it (was a Problem).
    variables = {"id": table.id, "t": table.gm, "c": face_down(state)[0], "to": "hand", "r": WHY}
    bad = client.post("/graphql", json={"query": GQL_MOVE, "variables": variables}).json()
    assert bad.get("data") is None and "RiverDestination" in json.dumps(bad["errors"]), bad
    version = table.get("", table.gm).json()["version"]
    ws_url = server_url.replace("http", "ws", 1) + "/graphql"
    with _subscribe(ws_url, table.id, table.players["p1"], version) as ws:
        done = gql(GQL_TURN, id=table.id, t=table.gm, r=WHY, next="p2")["overrideTurn"]
        assert done["__typename"] == "CommandResult" and done["view"]["active"] == "p2"
        live = _next_events(ws, done["version"] - version)
    assert live[0]["type"] == "TurnOverridden"
    assert live[0]["reason"] == WHY and live[0]["next_player"] == "p2"
    assert_no_hidden_card(table, live)
    moved = gql(GQL_MOVE, id=table.id, t=table.gm, c=face_down(table.state())[0], to="GAME", r=WHY)
    assert moved["moveRiverCard"]["__typename"] == "CommandResult"
