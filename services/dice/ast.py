"""The dice AST: frozen nodes, flat n-ary sums and products so depth is only nesting."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

CmpOp = Literal[">=", ">", "<=", "<", "="]
CheckOp = Literal[">=", ">", "<=", "<", "=="]
ExplodeKind = Literal["explode", "compound", "penetrate"]
KeepMode = Literal["kh", "kl", "dh", "dl"]


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
    """An integer literal."""

    value: int
    pos: int


@dataclass(frozen=True, slots=True)
class Dice:
    """`NdS` with its modifiers, applied in the fixed order reroll, explode, keep, count."""

    count: int
    sides: int
    pos: int
    percent: bool = False
    reroll: Reroll | None = None
    explode: Explode | None = None
    keep: Keep | None = None
    success: Comparison | None = None
    failure: Comparison | None = None

    @property
    def counting(self) -> bool:
        """Whether the term counts successes/failures rather than summing faces."""
        return self.success is not None or self.failure is not None

    def explode_faces(self) -> frozenset[int]:
        """Faces that trigger an explosion."""
        if self.explode is None:
            return frozenset()
        if self.explode.when is None:
            return frozenset((self.sides,))
        return self.explode.when.faces(self.sides)

    def notation(self) -> str:
        """Canonical notation of this term."""
        # Counting goes before an explosion: after `!` a comparison is its threshold.
        out = f"{self.count}d{'%' if self.percent else self.sides}"
        if self.reroll is not None:
            out += self.reroll.notation()
        if self.success is not None:
            out += str(self.success)
        if self.failure is not None:
            out += "f" + str(self.failure)
        for mod in (self.explode, self.keep):
            if mod is not None:
                out += mod.notation()
        return out


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
    """`min(...)` or `max(...)`."""

    fn: Literal["min", "max"]
    args: tuple[Node, ...]
    pos: int


Node = Num | Dice | Neg | Group | Sum | Product | Call


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
        return str(node.value)
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
    return f"{formula(node.left)} {node.op} {formula(node.right)}"
