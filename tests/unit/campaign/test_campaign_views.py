"""Views: the GM sees everything; players and spectators see supplies only as a level."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from services.campaign import commands as cmd
from services.campaign.rules import CampaignRules
from services.campaign.views import GM, Viewer, supplies_level, view_event, view_state
from tests.unit.campaign.play import Table
from tests.unit.campaign.test_campaign_properties import play

TABLE_VIEWERS = (Viewer.player("r1"), Viewer.spectator())
# Keys that would carry a supplies number (anywhere) ...
SECRET_KEYS = {
    "supplies",
    "supplies_start",
    "supplies_before",
    "supplies_after",
    "supplies_gained",
    "supplies_eaten",
    "supplies_decayed",
}
# ... and the GM's adjustment fields.
ADJUSTMENT_KEYS = {"delta", "before", "after", "reason"}


def keys(value: Any) -> Iterator[str]:
    """Every key anywhere in a JSON value."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from keys(v)


def test_supplies_levels_follow_the_quarters_of_the_maximum() -> None:
    levels = [supplies_level(s, 100) for s in (100, 75, 74, 50, 49, 25, 24, 1, 0)]
    assert levels == [
        "plentiful",
        "plentiful",
        "adequate",
        "adequate",
        "low",
        "low",
        "scarce",
        "scarce",
        "none",
    ]
    assert supplies_level(3, 4) == "plentiful" and supplies_level(2, 4) == "adequate"


def test_the_gm_sees_the_number_and_the_table_sees_the_level() -> None:
    table = Table(supplies=37)
    table.add("r1")
    gm = view_state(table.state, GM)
    assert gm["supplies"] == 37 and gm["supplies_level"] == "low"
    assert gm["rules"]["supplies_start"] == 50 and gm["avoidance_dc"] == 4
    for viewer in TABLE_VIEWERS:
        shown = view_state(table.state, viewer)
        assert "supplies" not in shown and "avoidance_dc" not in shown
        assert "supplies_start" not in shown["rules"]
        assert shown["supplies_level"] == "low"
        assert shown["runners"][0]["id"] == "r1"  # the rest is table knowledge
    assert view_state(table.state, Viewer.player("r1"))["viewer"] == "r1"


def test_an_adjustments_reason_and_amount_are_for_the_gm_only() -> None:
    table = Table(supplies=40)
    (event,) = table.do(cmd.AdjustSupplies(delta=20, reason="the GM's airdrop"))
    gm = view_event(event, GM)
    assert gm is not None
    assert (gm["reason"], gm["before"], gm["after"], gm["delta"]) == (
        "the GM's airdrop",
        40,
        60,
        20,
    )
    for viewer in TABLE_VIEWERS:
        shown = view_event(event, viewer)
        assert shown == {
            "type": "SuppliesAdjusted",
            "supplies_trend": "up",
            "supplies_level_before": "low",
            "supplies_level_after": "adequate",
        }


def test_a_tick_shows_the_table_the_levels_and_every_roll() -> None:
    table = Table(supplies=70)
    table.add("r1")
    table.choose("r1", "gather")
    tick = table.tick()
    gm = view_event(tick, GM)
    shown = view_event(tick, Viewer.player("r1"))
    assert gm is not None and shown is not None
    assert gm["supplies_after"] == tick.supplies_after
    assert shown["supplies_level_before"] == "adequate"
    assert shown["supplies_level_after"] == "plentiful"  # 70 + 6 (incredible) − 1 eaten
    assert shown["runners"] == gm["runners"]
    assert not SECRET_KEYS & set(keys(shown))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.lists(st.integers(0, 10**9), min_size=10, max_size=60))
def test_no_table_view_ever_shows_a_supplies_number_or_the_gms_reason(
    seed: int, picks: list[int]
) -> None:
    state, events = play(seed, picks, CampaignRules(), 63)
    for viewer in TABLE_VIEWERS:
        outputs = [view_event(e, viewer) for e in events] + [view_state(state, viewer)]
        for out in outputs:
            assert out is not None
            assert not SECRET_KEYS & set(keys(out)), out
            if out.get("type") == "SuppliesAdjusted":
                assert not ADJUSTMENT_KEYS & set(out), out
            assert "secret-" not in json.dumps(out)
            for tick in out.get("runners", ()) if out.get("type") == "DowntimePassed" else ():
                # An avoidance DC is a function of the supplies: the table never sees one.
                assert all(set(r["check"]) == {"skill", "dice", "total"} for r in tick["avoidance"])
    gm = json.dumps([view_event(e, GM) for e in events] + [view_state(state, GM)])
    if any(type(e).__name__ == "SuppliesAdjusted" for e in events):
        assert "secret-" in gm
    assert f'"supplies": {state.supplies}' in gm


def test_a_starving_tick_shows_the_table_the_avoidance_dice_but_not_their_dc() -> None:
    table = Table(supplies=0)
    table.add("r1")
    tick = table.tick()
    gm = view_event(tick, GM)
    shown = view_event(tick, Viewer.player("r1"))
    assert gm is not None and shown is not None
    gm_rolls = gm["runners"][0]["avoidance"]
    shown_rolls = shown["runners"][0]["avoidance"]
    assert gm_rolls and all(r["check"]["dc"] == 10 for r in gm_rolls)
    assert [r["check"]["dice"] for r in shown_rolls] == [r["check"]["dice"] for r in gm_rolls]
    assert [r["gained"] for r in shown_rolls] == [r["gained"] for r in gm_rolls]
    assert all("dc" not in r["check"] and "band" not in r["check"] for r in shown_rolls)
