"""The roll result tree: every die with its face, value, order and flags."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from services.dice.ast import Call, Dice, Expression, Group, Neg, Num, Product, Sum, formula

EXPLODED = 1
REROLLED = 2
DROPPED = 4
SUCCESS = 8
FAILURE = 16
PENETRATED = 32
COMPOUNDED = 64
CLAMPED = 128
_FLAG_NAMES = (
    (EXPLODED, "exploded"),
    (REROLLED, "rerolled"),
    (DROPPED, "dropped"),
    (SUCCESS, "success"),
    (FAILURE, "failure"),
    (PENETRATED, "penetrated"),
    (COMPOUNDED, "compounded"),
    (CLAMPED, "clamped"),
)


def flag_names(flags: int) -> tuple[str, ...]:
    """The names of the bits set in a flags word."""
    return tuple(name for bit, name in _FLAG_NAMES if flags & bit)


@dataclass(frozen=True, slots=True)
class Die:
    """One physical die throw.

    `face` is what the die shows; `value` what it adds (face - 1 on a penetrating
    explosion); `die` is the index of the die within its term that this throw belongs to
    (explosions and rerolls share it); `order` is the throw's place among all throws.
    """

    order: int
    term: int
    die: int
    sides: int
    face: int
    value: int
    flags: int
    label: str | None = None

    @property
    def active(self) -> bool:
        """Whether the throw counts towards the total (not rerolled away, not dropped)."""
        return not self.flags & (REROLLED | DROPPED)

    @property
    def flag_names(self) -> tuple[str, ...]:
        """Flag names, e.g. ("exploded",)."""
        return flag_names(self.flags)

    def to_dict(self) -> dict[str, Any]:
        """Canonical JSON of the throw."""
        return {
            "order": self.order,
            "term": self.term,
            "die": self.die,
            "sides": self.sides,
            "face": self.face,
            "value": self.value,
            "active": self.active,
            "flags": list(self.flag_names),
            "label": self.label,
        }


class Result:
    """A node of the result tree: the AST node it evaluates and its value."""

    __slots__ = ("node", "value")

    def __init__(self, node: Any, value: int) -> None:
        self.node = node
        self.value = value


class DiceResult(Result):
    """A dice term: its throws as [face, value, flags, die] in throw order."""

    __slots__ = ("rolls",)
    node: Dice

    def __init__(self, node: Dice, value: int, rolls: list[list[int]]) -> None:
        self.node = node
        self.value = value
        self.rolls = rolls


class CompositeResult(Result):
    """Sum, product, negation, group or function: its parts' results.

    Inside floor/ceil/round, division is exact, so a part's value may be a Fraction.
    """

    __slots__ = ("parts",)

    def __init__(self, node: Any, value: Any, parts: list[Result]) -> None:
        self.node = node
        self.value = value
        self.parts = parts


class GroupResult(CompositeResult):
    """A dice group `{a, b}khN`: each item's result and whether it was kept."""

    __slots__ = ("kept",)

    def __init__(self, node: Any, value: Any, parts: list[Result], kept: list[bool]) -> None:
        super().__init__(node, value, parts)
        self.kept = kept


@dataclass(frozen=True, slots=True)
class CheckResult:
    """Outcome of a comparison on the total: success and margin (positive is better)."""

    op: str
    total: int
    target: int
    success: bool
    margin: int

    def to_dict(self) -> dict[str, Any]:
        """Canonical JSON of the check."""
        return {
            "op": self.op,
            "total": self.total,
            "target": self.target,
            "success": self.success,
            "margin": self.margin,
        }


class RollResult:
    """A whole roll: total, check, and every throw; the per-die tree is rebuilt on demand.

    The hot path records only the raw faces thrown (`draws`); `tree` replays them
    through the tree evaluator, which makes the same throws in the same order.
    """

    __slots__ = ("_target_tree", "_tree", "check", "compiled", "draws", "rng", "total")

    def __init__(
        self,
        compiled: Any,
        total: int,
        check: CheckResult | None,
        draws: list[int],
        rng: dict[str, Any] | None = None,
    ) -> None:
        self.compiled = compiled
        self.total = total
        self.check = check
        self.draws = draws
        self.rng = rng
        self._tree: Result | None = None
        self._target_tree: Result | None = None

    @property
    def expression(self) -> Expression:
        """The parsed expression."""
        expr: Expression = self.compiled.expr
        return expr

    def _build(self) -> None:
        left, right = self.compiled.replay(self.draws)
        if left.value != self.total:  # pragma: no cover - would be an engine bug
            raise AssertionError("replayed tree disagrees with the rolled total")
        self._tree, self._target_tree = left, right

    @property
    def tree(self) -> Result:
        """The result tree of the expression (left of a check)."""
        if self._tree is None:
            self._build()
        assert self._tree is not None
        return self._tree

    @property
    def target_tree(self) -> Result | None:
        """The result tree of a check's right-hand side, if any."""
        if self._tree is None:
            self._build()
        return self._target_tree

    @property
    def seed(self) -> str | None:
        """The seed that replays this roll, when it came from a seeded generator."""
        return None if self.rng is None else self.rng.get("seed")

    @property
    def dice(self) -> list[Die]:
        """Every throw, in throw order."""
        out: list[Die] = []
        for term_index, term in enumerate(dice_results(self)):
            sides, label = term.node.sides, term.node.label
            for face, value, flags, die in term.rolls:
                out.append(Die(len(out), term_index, die, sides, face, value, flags, label))
        return out

    def to_dict(self) -> dict[str, Any]:
        """Canonical JSON: expression, total, check, dice, tree, and the seed if any."""
        return render_canonical(self)


def dice_results(result: RollResult) -> list[DiceResult]:
    """The dice-term results of a roll in throw order (left side, then a check's right)."""
    if result.target_tree is None:
        return _terms_of(result.tree)
    return _terms_of(result.tree, result.target_tree)


def _terms_of(*roots: Result) -> list[DiceResult]:
    """The dice-term results under `roots`, left to right."""
    out: list[DiceResult] = []
    stack: list[Result] = list(reversed(roots))
    while stack:
        cur = stack.pop()
        if isinstance(cur, DiceResult):
            out.append(cur)
        elif isinstance(cur, CompositeResult):
            stack.extend(reversed(cur.parts))
    return out


# -- Canonical JSON (the other renderings, built on these types, are in render.py) ------


def render_canonical(result: RollResult) -> dict[str, Any]:
    """Canonical JSON: expression, total, check, every throw, the tree and the seed."""
    expr = result.expression
    out: dict[str, Any] = {
        "expression": expr.source,
        "formula": formula(expr.root),
        "total": result.total,
        "check": None if result.check is None else result.check.to_dict(),
        "dice": [d.to_dict() for d in result.dice],
        "tree": _tree(result.tree, [0]),
    }
    if result.target_tree is not None:
        out["target_tree"] = _tree(result.target_tree, [len(_terms_of(result.tree))])
    if result.rng is not None:
        out["rng"] = result.rng
        if "seed" in result.rng:
            out["seed"] = result.rng["seed"]
    return out


def number(value: int | Fraction) -> int | str:
    """A value for JSON: an int, or "n/d" inside floor/ceil/round where division is exact."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else str(value)
    return value


def _tree(res: Result, term_counter: list[int]) -> dict[str, Any]:
    node = res.node
    if isinstance(res, DiceResult):
        term = term_counter[0]
        term_counter[0] += 1
        out = {
            "type": "dice",
            "notation": node.notation(),
            "term": term,
            "count": node.count,
            "sides": node.sides,
            "kind": node.kind,
            "label": node.label,
            "value": res.value,
            "throws": [
                {
                    "face": f,
                    "value": v,
                    "die": die,
                    "active": not fl & (REROLLED | DROPPED),
                    "flags": list(flag_names(fl)),
                }
                for f, v, fl, die in res.rolls
            ],
        }
        if node.values:
            out["faces"] = list(node.values)
        return out
    if isinstance(node, Num):
        return {"type": "number", "value": res.value, **_label(node.label)}
    assert isinstance(res, CompositeResult)
    parts = [_tree(p, term_counter) for p in res.parts]
    value = number(res.value)
    if isinstance(res, GroupResult):
        keep = None if node.keep is None else node.keep.notation()
        items = [{**p, "kept": k} for p, k in zip(parts, res.kept, strict=True)]
        return {"type": "dice_group", "value": value, "keep": keep, "items": items}
    if isinstance(node, Sum | Product):
        ops = [op for op, _ in node.rest]
        kind = "sum" if isinstance(node, Sum) else "product"
        return {
            "type": kind,
            "value": value,
            "first": parts[0],
            "rest": [{"op": op, "operand": p} for op, p in zip(ops, parts[1:], strict=True)],
        }
    if isinstance(node, Neg):
        return {"type": "negate", "value": value, "operand": parts[0]}
    if isinstance(node, Group):
        return {"type": "group", "value": value, "inner": parts[0]}
    assert isinstance(node, Call)
    return {"type": "call", "fn": node.fn, "value": value, "args": parts}


def _label(label: str | None) -> dict[str, Any]:
    return {} if label is None else {"label": label}
