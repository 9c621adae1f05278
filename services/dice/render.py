"""Renderings of a roll for VTTs: Foundry VTT `Roll.toJSON()` and Dice So Nice throws.

The canonical JSON is `RollResult.to_dict` (results.py): the result renders itself, so the
result types never import a renderer.
"""

from __future__ import annotations

from typing import Any

from services.dice.ast import Call, Dice, Group, Neg, Num, Product, Sum, formula
from services.dice.results import (
    COMPOUNDED,
    DROPPED,
    EXPLODED,
    FAILURE,
    PENETRATED,
    REROLLED,
    SUCCESS,
    CompositeResult,
    DiceResult,
    Result,
    RollResult,
    dice_results,
    flag_names,
)

# Faces Dice So Nice has 3D models for; others are shown as the closest it knows.
_DSN_FACES = (2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 30, 100)


# -- Foundry VTT ---------------------------------------------------------------------


def render_foundry(result: RollResult) -> dict[str, Any]:
    """Foundry VTT `Roll.toJSON()` shape, loadable with `Roll.fromData`.

    Foundry has no comparison on the total; a check is carried in
    `options.daedalus.check`. Compound and penetrating explosions appear as exploded
    results (their values sum to the total), flagged in each result's `daedalus` key.
    """
    roll = _foundry_roll(result.tree, formula(result.tree.node))
    if result.check is not None:
        roll["options"] = {"daedalus": {"check": result.check.to_dict()}}
    return roll


def _foundry_roll(res: Result, text: str) -> dict[str, Any]:
    terms = _foundry_terms(res)
    return {
        "class": "Roll",
        "options": {},
        "dice": [],
        "formula": text,
        "terms": terms,
        "total": res.value,
        "evaluated": True,
    }


def _foundry_terms(res: Result) -> list[dict[str, Any]]:
    node = res.node
    base = {"options": {}, "evaluated": True}
    if isinstance(res, DiceResult):
        return [_foundry_die(res)]
    if isinstance(node, Num):
        return [{"class": "NumericTerm", **base, "number": res.value}]
    assert isinstance(res, CompositeResult)
    if isinstance(node, Sum | Product):
        out = _foundry_terms(res.parts[0])
        for (op, _), part in zip(node.rest, res.parts[1:], strict=True):
            # Foundry applies precedence to the flat list; only groups need parentheses.
            out.append({"class": "OperatorTerm", **base, "operator": op})
            out.extend(_foundry_terms(part))
        return out
    if isinstance(node, Neg):
        return [{"class": "OperatorTerm", **base, "operator": "-"}, *_foundry_paren(res.parts[0])]
    if isinstance(node, Group):
        return _foundry_paren(res.parts[0])
    assert isinstance(node, Call)
    return [
        {
            "class": "FunctionTerm",
            **base,
            "fn": node.fn,
            "terms": [formula(p.node) for p in res.parts],
            "rolls": [_foundry_roll(p, formula(p.node)) for p in res.parts],
            "result": str(res.value),
        }
    ]


def _foundry_paren(res: Result) -> list[dict[str, Any]]:
    if isinstance(res, DiceResult) or isinstance(res.node, Num):
        return _foundry_terms(res)
    text = formula(res.node)
    return [
        {
            "class": "ParentheticalTerm",
            "options": {},
            "evaluated": True,
            "term": text,
            "roll": _foundry_roll(res, text),
        }
    ]


def _foundry_modifiers(d: Dice) -> list[str]:
    mods: list[str] = []
    if d.reroll is not None:
        mods.append(("r" if d.reroll.once else "rr") + str(d.reroll.when))
    if d.explode is not None:
        mods.append("x" + (str(d.explode.when) if d.explode.when else ""))
    if d.keep is not None:
        mods.append(d.keep.notation())
    if d.success is not None:
        mods.append("cs" + str(d.success))
    if d.failure is not None:
        mods.append("cf" + str(d.failure))
    return mods


def _foundry_die(res: DiceResult) -> dict[str, Any]:
    d = res.node
    results = []
    for face, value, fl, _die in res.rolls:
        r: dict[str, Any] = {"result": value, "active": not fl & (REROLLED | DROPPED)}
        if fl & DROPPED:
            r["discarded"] = True
        if fl & REROLLED:
            r["rerolled"] = True
        if fl & EXPLODED:
            r["exploded"] = True
        if d.counting and r["active"]:
            r["count"] = (1 if fl & SUCCESS else 0) - (1 if fl & FAILURE else 0)
            if fl & SUCCESS:
                r["success"] = True
            if fl & FAILURE:
                r["failure"] = True
        if fl & (PENETRATED | COMPOUNDED):
            r["daedalus"] = {"face": face, "flags": list(flag_names(fl))}
        results.append(r)
    return {
        "class": "Die",
        "options": {},
        "evaluated": True,
        "number": d.count,
        "faces": d.sides,
        "modifiers": _foundry_modifiers(d),
        "results": results,
        "method": "daedalus",
    }


# -- Dice So Nice --------------------------------------------------------------------


def render_dice_so_nice(result: RollResult) -> dict[str, Any]:
    """Dice So Nice `show()` data: one throw with every physical die and its face."""
    dice = []
    for term in dice_results(result):
        sides = term.node.sides
        dtype = f"d{sides}" if sides in _DSN_FACES else f"d{_closest(sides)}"
        for face, _value, fl, _die in term.rolls:
            options: dict[str, Any] = {}
            if fl & (REROLLED | DROPPED):
                options["ghost"] = True
            dice.append(
                {
                    "result": face,
                    "resultLabel": str(face),
                    "type": dtype,
                    "vectors": [],
                    "options": options,
                    **({"discarded": True} if fl & DROPPED else {}),
                    **({"rerolled": True} if fl & REROLLED else {}),
                }
            )
    return {"throws": [{"dice": dice}]}


def _closest(sides: int) -> int:
    return min(_DSN_FACES, key=lambda f: (abs(f - sides), f))
