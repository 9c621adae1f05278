"""The table's roll log over a real server: a session's and a campaign's rolls, each shown
to every viewer as its visibility allows, through the event history and the view of
whoever sent it."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.e2e.test_campaigns_api import Campaign
from tests.e2e.test_sessions_api import Table

pytestmark = pytest.mark.e2e


def _last_roll(table: Table, token: str) -> dict[str, Any]:
    rolls = [e for e in table.events(token) if e["type"] == "DiceRolled"]
    return rolls[-1]


@pytest.mark.parametrize(
    ("visibility", "to", "sees"),
    [
        ("everyone", [], {"gm", "p1", "p2", "p3", "spectator"}),
        ("gm", [], {"gm", "p1"}),
        ("whisper", ["p2"], {"gm", "p1", "p2"}),
    ],
)
def test_a_session_roll_reaches_exactly_its_audience(
    client: httpx.Client, visibility: str, to: list[str], sees: set[str]
) -> None:
    table = Table(client)
    command = {
        "type": "RollDice",
        "player": "p1",
        "expression": "3d6+2",
        "label": "listen at the door",
        "visibility": visibility,
        "to": to,
    }
    sent = table.send(command)
    (mine,) = [e for e in sent["events"] if e["type"] == "DiceRolled"]
    assert 5 <= mine["roll"]["total"] <= 20 and len(mine["roll"]["faces"]) == 3
    # Each die as /v1/dice/roll shows it, for a VTT's 3D dice; hidden with the rest.
    dice = mine["roll"]["dice"]
    assert [(d["sides"], d["face"]) for d in dice] == [(6, f) for f in mine["roll"]["faces"]]
    tokens = {"gm": table.gm, "spectator": table.spectator, **table.players}
    for name, token in tokens.items():
        shown = _last_roll(table, token)
        if name in sees:
            assert shown["roll"] == mine["roll"] and shown["label"] == "listen at the door"
        else:
            assert "roll" not in shown and "label" not in shown and shown["hidden"] is True
            assert "dice" not in repr(shown) and "faces" not in repr(shown), name
            assert shown["by"] == "p1", name


def test_only_a_member_rolls_as_themselves_and_a_spectator_never(client: httpx.Client) -> None:
    table = Table(client)
    as_other = table.post(
        "commands", {"type": "RollDice", "player": "p2", "expression": "1d6"}, table.players["p1"]
    )
    assert (as_other.status_code, as_other.json()["code"]) == (403, "forbidden")
    watcher = table.post("commands", {"type": "RollDice", "expression": "1d6"}, table.spectator)
    assert watcher.status_code == 403
    bad = table.post(
        "commands", {"type": "RollDice", "player": "p1", "expression": "2d"}, table.players["p1"]
    )
    assert bad.status_code == 400 and bad.json()["code"] != "internal_error", bad.text
    gm_secret = table.send({"type": "RollDice", "expression": "1d20", "visibility": "gm"})
    assert gm_secret["events"][-1]["by"] is None
    # A player who names no member rolls as their own.
    own = table.post("commands", {"type": "RollDice", "expression": "1d6"}, table.players["p2"])
    assert own.status_code == 200 and own.json()["events"][-1]["by"] == "p2", own.text


def test_a_campaign_keeps_a_roll_log_too(client: httpx.Client) -> None:
    campaign = Campaign(client)
    campaign.add("r1", "r2")
    body = {"runner": "r1", "expression": "1d12!+2", "visibility": "whisper", "to": ["r2"]}
    sent = campaign.ok("POST", "/rolls", campaign.players["r1"], json=body)
    (rolled,) = sent["events"]
    assert rolled["type"] == "CampaignDiceRolled" and rolled["total"] >= 3
    seen = {}
    for name, token in {
        "gm": campaign.gm,
        "spectator": campaign.spectator,
        **campaign.players,
    }.items():
        events = campaign.ok("GET", "/events", token)["events"]
        seen[name] = events[-1]
    assert seen["r2"]["total"] == seen["gm"]["total"] == rolled["total"]
    dice = rolled["dice"]  # each die, exploding included, as /v1/dice/roll shows it
    assert [d["face"] for d in dice] == rolled["faces"] and seen["r2"]["dice"] == dice
    assert seen["gm"]["dice"] == dice  # the GM sees everything a player is shown
    gm_roll = campaign.ok("POST", "/rolls", campaign.gm, json={"expression": "2d6"})
    assert len(gm_roll["events"][0]["dice"]) == 2, gm_roll  # and in their own answers
    assert all(d["sides"] == 12 for d in dice) and ("exploded" in dice[0]["flags"]) == (
        len(dice) > 1
    )
    assert seen["spectator"] == {
        "type": "CampaignDiceRolled",
        "version": rolled["version"],
        "by": "r1",
        "visibility": "whisper",
        "hidden": True,
    }
    # A player who names no runner rolls as their own; naming another's is refused.
    own = campaign.ok("POST", "/rolls", campaign.players["r2"], json={"expression": "1d6"})
    assert own["events"][0]["by"] == "r2", own
    other = {"runner": "r1", "expression": "1d6"}
    as_other = campaign.call("POST", "/rolls", campaign.players["r2"], json=other)
    assert (as_other.status_code, as_other.json()["code"]) == (403, "forbidden")
