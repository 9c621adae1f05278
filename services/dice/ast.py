"""The dice AST: frozen nodes, flat n-ary sums and products so depth is only nesting."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

CmpOp = Literal[">=", ">", "<=", "<", "="]
CheckOp = Literal[">=", ">", "<=", "<", "=="]
ExplodeKind = Literal["explode", "compound", "penetrate"]
KeepMode = Literal["kh", "kl", "dh", "dl"]
DieKind = Literal["standard", "fate", "custom", "d66"]
FunctionName = Literal["min", "max", "floor", "ceil", "round", "abs"]
ROUNDING: frozenset[str] = frozenset(("floor", "ceil", "round"))
"""Functions whose argument is evaluated with exact division (see docs/DICE.md)."""
FATE_FACES = (-1, 0, 1)
D66_FACES = tuple(10 * t + u for t in range(1, 7) for u in range(1, 7))


@dataclass(frozen=True, slots=True)
class Comparison:
    """A per-face test such as `>=8` or `=1`."""

    op: CmpOp
    value: int

    def test(self, x: int) -> bool:
        """Whether x passes this test."""
        op, v = self.op, self.value
        if op == ">=":
            return x >= v
        if op == ">":
            return x > v
        if op == "<=":
            return x <= v
        if op == "<":
            return x < v
        return x == v

    def faces(self, sides: int) -> frozenset[int]:
        """The faces 1..sides that pass."""
        return frozenset(f for f in range(1, sides + 1) if self.test(f))

    def passing(self, values: tuple[int, ...]) -> frozenset[int]:
        """The face values among `values` that pass."""
        return frozenset(f for f in values if self.test(f))

    def __str__(self) -> str:
        return f"{self.op}{self.value}"


@dataclass(frozen=True, slots=True)
class Explode:
    """`!` (each explosion a separate die), `!!` (compounded into one), `!p` (penetrating)."""

    kind: ExplodeKind
    when: Comparison | None  # None: on the highest face

    def notation(self) -> str:
        """The modifier as written in canonical notation."""
        mark = {"explode": "!", "compound": "!!", "penetrate": "!p"}[self.kind]
        return mark + (str(self.when) if self.when else "")


@dataclass(frozen=True, slots=True)
class Reroll:
    """`r<=N` rerolls until the face passes; `ro<=N` rerolls at most once."""

    when: Comparison
    once: bool

    def notation(self) -> str:
        """The modifier as written in canonical notation."""
        return ("ro" if self.once else "r") + str(self.when)


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep or drop the highest or lowest N dice."""

    mode: KeepMode
    n: int

    def kept(self, count: int) -> tuple[int, bool]:
        """(how many to keep, keep the highest?) among `count` units."""
        if self.mode == "kh":
            return min(self.n, count), True
        if self.mode == "kl":
            return min(self.n, count), False
        if self.mode == "dh":
            return max(count - self.n, 0), False
        return max(count - self.n, 0), True

    def notation(self) -> str:
        """The modifier as written in canonical notation."""
        return f"{self.mode}{self.n}"


@dataclass(frozen=True, slots=True)
class Num:
    """An integer literal, optionally labelled (`5[str]`)."""

    value: int
    pos: int
    label: str | None = None


@dataclass(frozen=True, slots=True)
class Dice:
    """`NdS` with its modifiers, applied in the fixed order reroll, clamp, explode, keep, count.

    `sides` is the number of faces; `values` the value of each face for Fate (`dF`),
    custom (`d{1,1,2,3}`) and table (`d66t`) dice, empty for standard dice (1..sides).
    """

    count: int
    sides: int
    pos: int
    percent: bool = False
    reroll: Reroll | None = None
    explode: Explode | None = None
    keep: Keep | None = None
    success: Comparison | None = None
    failure: Comparison | None = None
    kind: DieKind = "standard"
    values: tuple[int, ...] = ()
    clamp_min: int | None = None
    clamp_max: int | None = None
    count_failures: bool = False
    """`cf` without a success test: each failure counts +1 (Foundry), not -1."""
    label: str | None = None

    @property
    def counting(self) -> bool:
        """Whether the term counts successes/failures rather than summing faces."""
        return self.success is not None or self.failure is not None

    @property
    def clamped(self) -> bool:
        """Whether a per-die minimum or maximum applies."""
        return self.clamp_min is not None or self.clamp_max is not None

    def face_values(self) -> tuple[int, ...]:
        """The value of each face, in face order."""
        return self.values if self.values else tuple(range(1, self.sides + 1))

    def clamp(self, v: int) -> int:
        """A face's value after the per-die minimum and maximum (`min2`, `max5`)."""
        if self.clamp_min is not None and v < self.clamp_min:
            v = self.clamp_min
        if self.clamp_max is not None and v > self.clamp_max:
            v = self.clamp_max
        return v

    def score(self, v: int) -> int:
        """A counted unit's score: +1 success, -1 failure (+1 for `cf` alone)."""
        out = 1 if self.success is not None and self.success.test(v) else 0
        if self.failure is not None and self.failure.test(v):
            out += 1 if self.count_failures else -1
        return out

    def explode_faces(self) -> frozenset[int]:
        """Faces that trigger an explosion."""
        if self.explode is None:
            return frozenset()
        if self.explode.when is None:
            return frozenset((self.sides,))
        return self.explode.when.faces(self.sides)

    def die_notation(self) -> str:
        """The die itself: `20`, `%`, `F`, `66t` or `{1,1,2,3}`."""
        if self.percent:
            return "%"
        if self.kind == "fate":
            return "F"
        if self.kind == "d66":
            return "66t"
        if self.kind == "custom":
            return "{" + ",".join(_runs(self.values)) + "}"
        return str(self.sides)

    def notation(self) -> str:
        """Canonical notation of this term."""
        # Counting goes before an explosion: after `!` a comparison is its threshold.
        out = f"{self.count}d{self.die_notation()}"
        if self.reroll is not None:
            out += self.reroll.notation()
        if self.success is not None:
            out += str(self.success)
        if self.failure is not None:
            out += ("cf" if self.count_failures else "f") + str(self.failure)
        if self.clamp_min is not None:
            out += f"min{self.clamp_min}"
        if self.clamp_max is not None:
            out += f"max{self.clamp_max}"
        for mod in (self.explode, self.keep):
            if mod is not None:
                out += mod.notation()
        return out + label_notation(self.label)


def _runs(values: tuple[int, ...]) -> list[str]:
    """Faces as written: runs of 5 or more consecutive values as `a..b`."""
    out: list[str] = []
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        if j - i >= 4:
            out.append(f"{values[i]}..{values[j]}")
        else:
            out.extend(str(v) for v in values[i : j + 1])
        i = j + 1
    return out


def label_notation(label: str | None) -> str:
    """`[label]`, or nothing."""
    return "" if label is None else f"[{label}]"


@dataclass(frozen=True, slots=True)
class Neg:
    """Unary minus."""

    operand: Node
    pos: int


@dataclass(frozen=True, slots=True)
class Group:
    """A parenthesised sub-expression (kept for faithful rendering)."""

    inner: Node
    pos: int


@dataclass(frozen=True, slots=True)
class Sum:
    """`a + b - c ...`: a flat chain, so long sums add no depth."""

    first: Node
    rest: tuple[tuple[Literal["+", "-"], Node], ...]
    pos: int


@dataclass(frozen=True, slots=True)
class Product:
    """`a * b / c ...` evaluated left to right; `/` is floor division."""

    first: Node
    rest: tuple[tuple[Literal["*", "/"], Node], ...]
    pos: int


@dataclass(frozen=True, slots=True)
class Call:
    """`min(...)`, `max(...)`, or one-argument `floor`, `ceil`, `round`, `abs`."""

    fn: FunctionName
    args: tuple[Node, ...]
    pos: int


@dataclass(frozen=True, slots=True)
class DiceGroup:
    """`{a, b, ...}khN`: sub-expressions rolled apart; keep/drop picks among their totals."""

    items: tuple[Node, ...]
    keep: Keep | None
    pos: int


Node = Num | Dice | Neg | Group | Sum | Product | Call | DiceGroup


@dataclass(frozen=True, slots=True)
class Check:
    """A comparison on the total (`1d20+3 >= 13`), giving success and margin."""

    left: Node
    op: CheckOp
    right: Node
    pos: int


@dataclass(frozen=True, slots=True)
class Expression:
    """A parsed expression: its source text and root node."""

    source: str
    root: Node | Check


def children(node: Node | Check) -> tuple[Node, ...]:
    """The direct sub-nodes of a node."""
    if isinstance(node, Neg):
        return (node.operand,)
    if isinstance(node, Group):
        return (node.inner,)
    if isinstance(node, Sum | Product):
        return (node.first, *(n for _, n in node.rest))
    if isinstance(node, Call):
        return node.args
    if isinstance(node, DiceGroup):
        return node.items
    if isinstance(node, Check):
        return (node.left, node.right)
    return ()


def dice_terms(node: Node | Check) -> list[Dice]:
    """Every dice term, in the order they are thrown (left to right)."""
    out: list[Dice] = []
    stack: list[Node | Check] = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, Dice):
            out.append(cur)
        stack.extend(reversed(children(cur)))
    return out


def formula(node: Node | Check) -> str:
    """Canonical notation of a node (spaces around binary operators)."""
    if isinstance(node, Num):
        return str(node.value) + label_notation(node.label)
    if isinstance(node, Dice):
        return node.notation()
    if isinstance(node, Neg):
        return "-" + formula(node.operand)
    if isinstance(node, Group):
        return "(" + formula(node.inner) + ")"
    if isinstance(node, Sum | Product):
        out = formula(node.first)
        for op, n in node.rest:
            out += f" {op} {formula(n)}"
        return out
    if isinstance(node, Call):
        return node.fn + "(" + ", ".join(formula(a) for a in node.args) + ")"
    if isinstance(node, DiceGroup):
        keep = "" if node.keep is None else node.keep.notation()
        return "{" + ", ".join(formula(a) for a in node.items) + "}" + keep
    return f"{formula(node.left)} {node.op} {formula(node.right)}"
