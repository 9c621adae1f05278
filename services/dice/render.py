"""Renderings of a roll for VTTs: Foundry VTT `Roll.toJSON()` and Dice So Nice throws.

The canonical JSON is `RollResult.to_dict` (results.py): the result renders itself, so the
result types never import a renderer.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from services.dice.ast import (
    ROUNDING,
    Call,
    Dice,
    DiceGroup,
    Group,
    Neg,
    Num,
    Product,
    Sum,
)
from services.dice.foundry import (
    foundry_faces,
    foundry_flavor,
    foundry_formula,
    foundry_modifiers,
)
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
    GroupResult,
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

    Formulas are in Foundry's notation (services/dice/foundry.py), so `clone()` and
    `reroll()` keep the meaning. Foundry has no comparison on the total: the roll is the
    left side, and a check is carried in `options.daedalus.check`, with the right side's
    own Roll (`right`) when it has dice. Compound and penetrating explosions appear as
    exploded results (their values sum to the total), flagged in each result's
    `daedalus` key and said in the die's flavor.
    """
    roll = _foundry_roll(result.tree, foundry_formula(result.tree.node))
    if result.check is not None:
        check: dict[str, Any] = result.check.to_dict()
        right = result.target_tree
        if right is not None and dice_in(right):
            check["right"] = _foundry_roll(right, foundry_formula(right.node))
        roll["options"] = {"daedalus": {"check": check}}
    return roll


def dice_in(res: Result) -> bool:
    """Whether a result tree threw any die."""
    if isinstance(res, DiceResult):
        return True
    return isinstance(res, CompositeResult) and any(dice_in(p) for p in res.parts)


def _foundry_roll(res: Result, text: str, exact: bool = False) -> dict[str, Any]:
    terms = _foundry_terms(res, exact)
    return {
        "class": "Roll",
        "options": {},
        "dice": [],
        "formula": text,
        "terms": terms,
        "total": _js_number(res.value),
        "evaluated": True,
    }


def _js_number(value: int | Fraction) -> int | float:
    """Foundry keeps JavaScript numbers: an exact fraction becomes the nearest float."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value


def _foundry_terms(res: Result, exact: bool = False) -> list[dict[str, Any]]:
    """Foundry terms of `res` (`exact`: inside floor/ceil/round, where `/` is exact)."""
    node = res.node
    base = {"options": {}, "evaluated": True}
    if isinstance(res, DiceResult):
        return [_foundry_die(res)]
    if isinstance(node, Num):
        options = {} if node.label is None else {"flavor": node.label}
        return [{"class": "NumericTerm", **base, "options": options, "number": res.value}]
    assert isinstance(res, CompositeResult)
    if isinstance(res, GroupResult):
        return [_foundry_pool(res)]
    if isinstance(node, Product):
        return _foundry_product(res, node, exact)
    if isinstance(node, Sum):
        out = _foundry_terms(res.parts[0], exact)
        for (op, _), part in zip(node.rest, res.parts[1:], strict=True):
            # Foundry applies precedence to the flat list; only groups need parentheses.
            out.append({"class": "OperatorTerm", **base, "operator": op})
            out.extend(_foundry_terms(part, exact))
        return out
    if isinstance(node, Neg):
        minus = {"class": "OperatorTerm", **base, "operator": "-"}
        return [minus, *_foundry_paren(res.parts[0], exact)]
    if isinstance(node, Group):
        return _foundry_paren(res.parts[0], exact)
    assert isinstance(node, Call)
    exact = exact or node.fn in ROUNDING  # Daedalus divides exactly inside these
    texts = [foundry_formula(p.node, exact) for p in res.parts]
    return [
        {
            "class": "FunctionTerm",
            **base,
            "fn": node.fn,
            "terms": texts,
            "rolls": [_foundry_roll(p, t, exact) for p, t in zip(res.parts, texts, strict=True)],
            "result": str(_js_number(res.value)),
        }
    ]


def _foundry_product(res: CompositeResult, node: Product, exact: bool) -> list[dict[str, Any]]:
    """A product's terms; each floor division becomes Foundry's `floor(a / b)`, left to right."""
    base = {"options": {}, "evaluated": True}
    first = res.parts[0]
    terms = _foundry_terms(first, exact)
    value: int | Fraction = first.value
    text = foundry_formula(node.first, exact)
    for (op, right_node), part in zip(node.rest, res.parts[1:], strict=True):
        right_text = foundry_formula(right_node, exact)
        joined = [*terms, {"class": "OperatorTerm", **base, "operator": op}]
        joined += _foundry_terms(part, exact)
        if op == "/" and not exact:
            inner_text = f"{text} / {right_text}"
            inner: dict[str, Any] = {
                "class": "Roll",
                "options": {},
                "dice": [],
                "formula": inner_text,
                "terms": joined,
                "total": _js_number(Fraction(value) / part.value),
                "evaluated": True,
            }
            value = Fraction(value) // part.value
            terms = [
                {
                    "class": "FunctionTerm",
                    **base,
                    "fn": "floor",
                    "terms": [inner_text],
                    "rolls": [inner],
                    "result": str(_js_number(value)),
                }
            ]
            text = f"floor({inner_text})"
        else:
            value = value * part.value if op == "*" else Fraction(value) / part.value
            terms, text = joined, f"{text} {op} {right_text}"
    return terms


def _foundry_pool(res: GroupResult) -> dict[str, Any]:
    """A dice group as Foundry's PoolTerm: one roll per item, results kept or discarded."""
    node: DiceGroup = res.node
    results: list[dict[str, Any]] = []
    for part, kept in zip(res.parts, res.kept, strict=True):
        r: dict[str, Any] = {"result": _js_number(part.value), "active": kept}
        if not kept:
            r["discarded"] = True
        results.append(r)
    return {
        "class": "PoolTerm",
        "options": {},
        "evaluated": True,
        "terms": [foundry_formula(p.node) for p in res.parts],
        "modifiers": [] if node.keep is None else [node.keep.notation()],
        "rolls": [_foundry_roll(p, foundry_formula(p.node)) for p in res.parts],
        "results": results,
    }


def _foundry_paren(res: Result, exact: bool = False) -> list[dict[str, Any]]:
    if isinstance(res, DiceResult) or isinstance(res.node, Num):
        return _foundry_terms(res, exact)
    text = foundry_formula(res.node, exact)
    return [
        {
            "class": "ParentheticalTerm",
            "options": {},
            "evaluated": True,
            "term": text,
            "roll": _foundry_roll(res, text, exact),
        }
    ]


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
            r["count"] = d.score(value)
            if fl & SUCCESS:
                r["success"] = True
            if fl & FAILURE:
                r["failure"] = True
        if fl & (PENETRATED | COMPOUNDED):
            r["daedalus"] = {"face": face, "flags": list(flag_names(fl))}
        results.append(r)
    options: dict[str, Any] = {}
    flavor = foundry_flavor(d)
    if flavor is not None:
        options["flavor"] = flavor
    if d.kind in ("custom", "d66"):
        # Foundry has no such die: the faces travel with it, for a client that cares.
        options["daedalus"] = {"die": d.die_notation(), "faces": list(d.values)}
    return {
        "class": "FateDie" if d.kind == "fate" else "Die",
        "options": options,
        "evaluated": True,
        "number": d.count,
        "faces": foundry_faces(d),
        "modifiers": foundry_modifiers(d),
        "results": results,
        "method": "daedalus",
    }


# -- Dice So Nice --------------------------------------------------------------------


def render_dice_so_nice(result: RollResult) -> dict[str, Any]:
    """Dice So Nice `show()` data: one throw with every physical die and its face."""
    dice = []
    for term in dice_results(result):
        node = term.node
        for face, _value, fl, _die in term.rolls:
            options: dict[str, Any] = {}
            if fl & (REROLLED | DROPPED):
                options["ghost"] = True
            extra = {
                **({"discarded": True} if fl & DROPPED else {}),
                **({"rerolled": True} if fl & REROLLED else {}),
            }
            for result_, label, dtype in _dsn_faces(node, face):
                dice.append(
                    {
                        "result": result_,
                        "resultLabel": label,
                        "type": dtype,
                        "vectors": [],
                        "options": dict(options),
                        **extra,
                    }
                )
    return {"throws": [{"dice": dice}]}


def _dsn_faces(d: Dice, face: int) -> list[tuple[int, str, str]]:
    """(result, label, model) of each 3D die showing one throw."""
    if d.kind == "fate":
        return [(face, {-1: "-", 0: " ", 1: "+"}[face], "df")]
    if d.kind == "d66":
        # The tables' d66 is a tens die and a units die.
        return [(face // 10, str(face // 10), "d6"), (face % 10, str(face % 10), "d6")]
    sides = d.sides
    dtype = f"d{sides}" if sides in _DSN_FACES else f"d{_closest(sides)}"
    if d.kind == "custom":
        # The model's face is the die's face number; the label is the value it bears.
        return [(d.values.index(face) + 1, str(face), dtype)]
    return [(face, str(face), dtype)]


def _closest(sides: int) -> int:
    return min(_DSN_FACES, key=lambda f: (abs(f - sides), f))
