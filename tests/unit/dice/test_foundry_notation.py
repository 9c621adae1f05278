"""Foundry-native rolls: every notation's formula in Foundry's dialect, and terms that
Foundry would evaluate to the same total (docs/DICE.md, "Foundry VTT").

Foundry's `Roll.fromData` keeps the terms and re-parses the formula on `clone()` and
`reroll()`: the formula must say the same roll in Foundry's words, and the terms, read
as Foundry reads them (JavaScript numbers, `/` exact, its functions), must give the total.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from services.dice import roll, seeded_rng
from services.dice.render import render_foundry

# (Daedalus expression, Foundry formula, term classes)
CASES: list[tuple[str, str, list[str]]] = [
    ("1d20+5", "1d20 + 5", ["Die", "OperatorTerm", "NumericTerm"]),
    ("1d%", "1d100", ["Die"]),
    ("d%", "1d100", ["Die"]),
    ("1d10!+2", "1d10x + 2", ["Die", "OperatorTerm", "NumericTerm"]),
    ("1d6!>=5", "1d6x>=5", ["Die"]),
    ("1d6!p", "1d6x[penetrating explosion: 1d6!p]", ["Die"]),
    ("4d6!!", "4d6x[compounding explosion: 4d6!!]", ["Die"]),
    ("10d10>=8", "10d10cs>=8", ["Die"]),
    ("10d10cs>=8cf1", "10d10cs>=8df=1", ["Die"]),
    ("2d6r1", "2d6rr=1", ["Die"]),
    ("2d6ro1", "2d6r=1", ["Die"]),
    ("4d6kh3", "4d6kh3", ["Die"]),
    ("2d20kl1", "2d20kl1", ["Die"]),
    ("4d6dl1", "4d6dl1", ["Die"]),
    ("2d20dh1", "2d20dh1", ["Die"]),
    ("4d6min2", "4d6min2", ["Die"]),
    ("4d6max5", "4d6max5", ["Die"]),
    ("4dF", "4dF", ["FateDie"]),
    ("1d8[fire] + 2d6[cold]", "1d8[fire] + 2d6[cold]", ["Die", "OperatorTerm", "Die"]),
    ("7/2", "floor(7 / 2)", ["FunctionTerm"]),
    ("1d20/3", "floor(1d20 / 3)", ["FunctionTerm"]),
    ("2d6*3/2+1", "floor(2d6 * 3 / 2) + 1", ["FunctionTerm", "OperatorTerm", "NumericTerm"]),
    ("floor(7/2)", "floor(7 / 2)", ["FunctionTerm"]),
    ("ceil(1d6/4)", "ceil(1d6 / 4)", ["FunctionTerm"]),
    ("round(5/2)", "round(5 / 2)", ["FunctionTerm"]),
    ("abs(1d6-4)", "abs(1d6 - 4)", ["FunctionTerm"]),
    ("-(1d6+2)", "-(1d6 + 2)", ["OperatorTerm", "ParentheticalTerm"]),
    ("(1d4+1)*2", "(1d4 + 1) * 2", ["ParentheticalTerm", "OperatorTerm", "NumericTerm"]),
    ("{1d20+5, 1d20+3}kh1", "{1d20 + 5, 1d20 + 3}kh1", ["PoolTerm"]),
    ("d{1,1,2,3}", "1d4[Daedalus die: 1d{1,1,2,3}]", ["Die"]),
    ("d66t", "1d36[Daedalus die: 1d66t]", ["Die"]),
    ("1d20+5 >= 15", "1d20 + 5", ["Die", "OperatorTerm", "NumericTerm"]),
    ("1d20 >= 1d20", "1d20", ["Die"]),
]


def _value(term: dict[str, Any]) -> Fraction:
    """A term's value as Foundry computes it from its results."""
    cls = term["class"]
    if cls == "NumericTerm":
        return Fraction(term["number"])
    if cls in ("Die", "FateDie"):
        active = [r for r in term["results"] if r.get("active", True)]
        counting = any("count" in r for r in active)
        return Fraction(sum(r["count"] if counting else r["result"] for r in active))
    if cls == "PoolTerm":
        return Fraction(sum(Fraction(r["result"]) for r in term["results"] if r["active"]))
    if cls == "ParentheticalTerm":
        return foundry_total(term["roll"]["terms"])
    assert cls == "FunctionTerm", cls
    args = [foundry_total(r["terms"]) for r in term["rolls"]]
    functions: dict[str, Callable[..., Any]] = {
        "floor": math.floor,
        "ceil": math.ceil,
        "abs": abs,
        "min": min,
        "max": max,
    }
    fn = functions.get(term["fn"])
    if term["fn"] == "round":  # JavaScript's Math.round: halves up
        return Fraction(math.floor(args[0] + Fraction(1, 2)))
    assert fn is not None, term["fn"]
    return Fraction(fn(*args))


def foundry_total(terms: list[dict[str, Any]]) -> Fraction:
    """The total of a flat term list with JavaScript's precedence and exact `/`."""
    values: list[Fraction] = []
    ops: list[str] = []
    sign = 1
    expect_value = True
    for term in terms:
        if term["class"] == "OperatorTerm":
            if expect_value:  # a unary minus
                sign = -sign if term["operator"] == "-" else sign
                continue
            ops.append(term["operator"])
            expect_value = True
            continue
        values.append(sign * _value(term))
        sign, expect_value = 1, False
    # * and / first, left to right, then + and -.
    sums, signs = [values[0]], []
    for op, value in zip(ops, values[1:], strict=True):
        if op == "*":
            sums[-1] *= value
        elif op == "/":
            sums[-1] /= value
        else:
            sums.append(value)
            signs.append(op)
    total = sums[0]
    for op, value in zip(signs, sums[1:], strict=True):
        total = total + value if op == "+" else total - value
    return total


@pytest.mark.parametrize(("expression", "formula", "classes"), CASES)
@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_the_foundry_formula_and_terms_say_the_same_roll(
    expression: str, formula: str, classes: list[str], seed: str
) -> None:
    result = roll(expression, seeded_rng(f"foundry-{seed}"))
    data = render_foundry(result)
    assert data["formula"] == formula
    assert [t["class"] for t in data["terms"]] == classes
    assert data["total"] == result.total
    # Read as Foundry reads them, the terms give the same total.
    assert foundry_total(data["terms"]) == result.total, data["terms"]


def test_a_comparison_carries_its_right_side_as_a_foundry_roll() -> None:
    result = roll("1d20 >= 1d20", seeded_rng("versus"))
    check = render_foundry(result)["options"]["daedalus"]["check"]
    right = check["right"]
    assert right["class"] == "Roll" and right["formula"] == "1d20"
    assert right["total"] == check["target"] == foundry_total(right["terms"])
    assert check["success"] == (result.total >= check["target"])
    # A fixed target has no dice to show: no right-hand roll.
    fixed = render_foundry(roll("1d20 >= 11", seeded_rng("versus")))
    assert "right" not in fixed["options"]["daedalus"]["check"]


def test_floor_division_keeps_its_inner_exact_roll() -> None:
    data = render_foundry(roll("7/2", seeded_rng("x")))
    (floor,) = data["terms"]
    assert floor["fn"] == "floor" and floor["result"] == "3" and floor["terms"] == ["7 / 2"]
    assert floor["rolls"][0]["total"] == 3.5
