"""Renderings: canonical JSON, Foundry VTT Roll.toJSON(), Dice So Nice throws."""

from __future__ import annotations

import json

from services.dice import render_dice_so_nice, render_foundry, roll, seeded_rng


def test_canonical_json_holds_every_throw_and_the_tree() -> None:
    r = roll("4d6kh3 + 1d8! >= 12", seeded_rng("render"))
    d = r.to_dict()
    json.dumps(d)  # serialisable as is
    assert d["total"] == r.total and d["seed"] == "render"
    assert [x["face"] for x in d["dice"]] == [x.face for x in r.dice]
    assert d["tree"]["value"] == r.total
    assert d["check"]["target"] == 12 and d["target_tree"] == {"type": "number", "value": 12}
    kept = [x for x in d["dice"] if x["term"] == 0 and x["active"]]
    assert len(kept) == 3


def test_foundry_rendering_has_the_roll_to_json_shape() -> None:
    r = roll("4d6kh3 + (1d6! - 1) * 2 >= 10", seeded_rng("foundry"))
    f = render_foundry(r)
    assert f["class"] == "Roll" and f["evaluated"] is True and f["total"] == r.total
    assert f["formula"] == "4d6kh3 + (1d6x - 1) * 2"  # Foundry's notation
    die, op = f["terms"][0], f["terms"][1]
    assert die["class"] == "Die" and die["faces"] == 6 and die["number"] == 4
    assert die["modifiers"] == ["kh3"]
    assert sum(x["result"] for x in die["results"] if x["active"]) == r.tree.parts[0].value  # type: ignore[attr-defined]
    assert sum(1 for x in die["results"] if x.get("discarded")) == 1
    assert op == {"class": "OperatorTerm", "options": {}, "evaluated": True, "operator": "+"}
    paren = f["terms"][2]
    assert paren["class"] == "ParentheticalTerm" and paren["term"] == "1d6x - 1"
    assert f["options"]["daedalus"]["check"]["target"] == 10


def test_foundry_results_flag_explosions_and_successes() -> None:
    r = roll("6d10>=8!f=1", seeded_rng("pool"))
    die = render_foundry(r)["terms"][0]
    results = die["results"]
    assert sum(x.get("count", 0) for x in results) == r.total
    assert all(x.get("exploded") for x in results if x["result"] == 10)
    # f subtracts failures: Foundry spells that df (its cf would replace the count).
    assert die["modifiers"] == ["x", "cs>=8", "df=1"]


def test_dice_so_nice_gets_every_physical_die_with_its_face() -> None:
    r = roll("3d6r<=1 + 1d20 + 1d1000", seeded_rng("dsn"))
    throws = render_dice_so_nice(r)["throws"]
    dice = throws[0]["dice"]
    assert [d["result"] for d in dice] == [x.face for x in r.dice]
    assert {d["type"] for d in dice} == {"d6", "d20", "d100"}
    assert all(d["options"].get("ghost") for d in dice if d.get("rerolled"))
    assert all(d["resultLabel"] == str(d["result"]) for d in dice)
