"""Daedalus notation → Foundry VTT notation, so `Roll.fromData`, `clone()` and `reroll()`
keep the meaning and the total (docs/DICE.md, "Foundry VTT").

Foundry re-parses a roll's formula when it clones or rerolls one, so the formula is
written in Foundry's own dialect: `x`/`r`/`rr`/`kh`/`kl`/`dh`/`dl`/`cs`/`cf`/`df`/
`min`/`max` modifiers, `d100` for `d%`, `dF`, `{…}kh1` pools, `[label]` flavors and
`floor(a / b)` where Daedalus divides with floor (Foundry's `/` is exact). What Foundry
cannot express — compounding and penetrating explosions, dice with custom faces, the
tables' d66 — is written as the nearest Foundry die with a flavor that says what the
die really is (`1d6x[compounding explosion: 1d6!!]`), never silently dropped.
"""

from __future__ import annotations

from services.dice.ast import (
    ROUNDING,
    Call,
    Check,
    Dice,
    DiceGroup,
    Group,
    Neg,
    Node,
    Num,
    Product,
    Sum,
)

# How Foundry falls short of each Daedalus explosion (said in the die's flavor).
_EXPLOSION_NOTE = {"compound": "compounding explosion", "penetrate": "penetrating explosion"}


def foundry_modifiers(d: Dice) -> list[str]:
    """The die's modifiers in Foundry's spelling (Foundry applies them in this order)."""
    mods: list[str] = []
    if d.reroll is not None:
        # Daedalus `r` rerolls until the face passes (Foundry `rr`); `ro` once (`r`).
        mods.append(("r" if d.reroll.once else "rr") + str(d.reroll.when))
    if d.explode is not None:
        mods.append("x" + (str(d.explode.when) if d.explode.when else ""))
    if d.clamp_min is not None:
        mods.append(f"min{d.clamp_min}")
    if d.clamp_max is not None:
        mods.append(f"max{d.clamp_max}")
    if d.keep is not None:
        mods.append(d.keep.notation())
    if d.success is not None:
        mods.append("cs" + str(d.success))
    if d.failure is not None:
        # Foundry's cf counts the failures instead; df subtracts them, as Daedalus does.
        mods.append(("cf" if d.count_failures else "df") + str(d.failure))
    return mods


def foundry_flavor(d: Dice) -> str | None:
    """The die's flavor in Foundry: its label, plus what Foundry's die does not say."""
    notes: list[str] = []
    if d.explode is not None and d.explode.kind in _EXPLOSION_NOTE:
        notes.append(f"{_EXPLOSION_NOTE[d.explode.kind]}: {d.notation()}")
    if d.kind in ("custom", "d66"):
        notes.append(f"Daedalus die: {d.notation()}")
    if not notes:
        return d.label
    return "; ".join(([d.label] if d.label else []) + notes)


def foundry_faces(d: Dice) -> int:
    """The faces of the Foundry die standing for `d`."""
    if d.percent:
        return 100
    if d.kind == "custom":
        return len(d.values)
    if d.kind == "d66":
        return 36
    return d.sides


def foundry_die(d: Dice) -> str:
    """One dice term in Foundry notation."""
    die = "dF" if d.kind == "fate" else f"d{foundry_faces(d)}"
    text = f"{d.count}{die}" + "".join(foundry_modifiers(d))
    flavor = foundry_flavor(d)
    return text + (f"[{flavor}]" if flavor else "")


def foundry_formula(node: Node | Check, exact_division: bool = False) -> str:
    """`node` in Foundry's notation (a check: its left side; Foundry has no comparison)."""
    if isinstance(node, Check):
        return foundry_formula(node.left, exact_division)
    if isinstance(node, Num):
        return str(node.value) + (f"[{node.label}]" if node.label else "")
    if isinstance(node, Dice):
        return foundry_die(node)
    if isinstance(node, Neg):
        return "-" + foundry_formula(node.operand, exact_division)
    if isinstance(node, Group):
        return "(" + foundry_formula(node.inner, exact_division) + ")"
    if isinstance(node, Sum):
        out = foundry_formula(node.first, exact_division)
        for op, n in node.rest:
            out += f" {op} {foundry_formula(n, exact_division)}"
        return out
    if isinstance(node, Product):
        text = foundry_formula(node.first, exact_division)
        for factor_op, factor in node.rest:
            right = foundry_formula(factor, exact_division)
            if factor_op == "/" and not exact_division:
                # Daedalus divides with floor, left to right; Foundry's `/` is exact.
                text = f"floor({text} / {right})"
            else:
                text = f"{text} {factor_op} {right}"
        return text
    if isinstance(node, Call):
        # Inside floor/ceil/round Daedalus divides exactly, as Foundry does.
        exact = exact_division or node.fn in ROUNDING
        args = ", ".join(foundry_formula(a, exact) for a in node.args)
        return f"{node.fn}({args})"
    assert isinstance(node, DiceGroup)
    keep = "" if node.keep is None else node.keep.notation()
    return "{" + ", ".join(foundry_formula(a, exact_division) for a in node.items) + "}" + keep
