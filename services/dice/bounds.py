"""Worst-case pricing of an expression shared by rolls, batches and distributions:
dice per roll, and the magnitude of every value (explosions taken at their cap)."""

from __future__ import annotations

from services.dice.ast import (
    Call,
    Check,
    Dice,
    DiceGroup,
    Expression,
    Group,
    Neg,
    Node,
    Num,
    Product,
    Sum,
    dice_terms,
)
from services.dice.errors import DiceLimitError
from services.dice.limits import Limits

MAX_VALUE = 2**62
"""Largest magnitude any value may reach: keeps batches in int64 and floats finite."""


def check_expression(expr: Expression, limits: Limits) -> None:
    """Refuse an expression that throws too many dice or could reach too large a value."""
    total_dice = sum(d.count for d in dice_terms(expr.root))
    if total_dice > limits.max_dice:
        raise DiceLimitError(
            f"the expression throws {total_dice} dice; the limit is {limits.max_dice} per roll",
            code="too_many_dice",
        )
    root = expr.root
    if isinstance(root, Check):
        _bounds(root.left, limits)
        _bounds(root.right, limits)
    else:
        _bounds(root, limits)


def value_bounds(node: Node, limits: Limits) -> tuple[int, int]:
    """(smallest, largest) value node can take with `/` as floor division (explosions at
    their cap); refuses, like `check_expression`, a value that could grow too large."""
    return _bounds(node, limits)


def _refuse(node: Node) -> DiceLimitError:
    return DiceLimitError(
        f"the value at position {node.pos} could exceed {MAX_VALUE} in magnitude",
        code="value_too_large",
        position=node.pos,
    )


def _bounds(node: Node, limits: Limits) -> tuple[int, int]:
    lo, hi = _raw_bounds(node, limits)
    if max(abs(lo), abs(hi)) > MAX_VALUE:
        raise _refuse(node)
    return lo, hi


def _raw_bounds(node: Node, limits: Limits) -> tuple[int, int]:
    if isinstance(node, Num):
        return node.value, node.value
    if isinstance(node, Dice):
        return _dice_bounds(node, limits)
    if isinstance(node, Group):
        return _bounds(node.inner, limits)
    if isinstance(node, Neg):
        lo, hi = _bounds(node.operand, limits)
        return -hi, -lo
    if isinstance(node, Sum):
        lo, hi = _bounds(node.first, limits)
        for op, sub in node.rest:
            a, b = _bounds(sub, limits)
            lo, hi = (lo + a, hi + b) if op == "+" else (lo - b, hi - a)
            if max(abs(lo), abs(hi)) > MAX_VALUE:
                raise _refuse(sub)
        return lo, hi
    if isinstance(node, Product):
        lo, hi = _bounds(node.first, limits)
        for mul, sub in node.rest:
            a, b = _bounds(sub, limits)
            if mul == "*":
                corners = [lo * a, lo * b, hi * a, hi * b]
                lo, hi = min(corners), max(corners)
            else:  # floor division by a nonzero integer never grows the magnitude (+1)
                m = max(abs(lo), abs(hi))
                lo, hi = -m - 1, m
            if max(abs(lo), abs(hi)) > MAX_VALUE:
                raise _refuse(sub)
        return lo, hi
    if isinstance(node, DiceGroup):
        parts = [_bounds(a, limits) for a in node.items]
        k, high = (len(parts), True) if node.keep is None else node.keep.kept(len(parts))
        # The sum of the k highest (lowest) values is monotone in every item.
        los = sorted((p[0] for p in parts), reverse=high)[:k]
        his = sorted((p[1] for p in parts), reverse=high)[:k]
        return sum(los), sum(his)
    assert isinstance(node, Call)
    parts = [_bounds(a, limits) for a in node.args]
    if node.fn == "abs":
        lo, hi = parts[0]
        return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi))), max(abs(lo), abs(hi))
    if node.fn in ("floor", "ceil", "round"):
        # Exact division stays within the floor-division bounds, give or take one.
        lo, hi = parts[0]
        return lo - 1, hi + 1
    pick = min if node.fn == "min" else max
    return pick(p[0] for p in parts), pick(p[1] for p in parts)


def _dice_bounds(d: Dice, limits: Limits) -> tuple[int, int]:
    throws = 1 + (limits.max_explosions if d.explode is not None else 0)
    if d.counting:
        units = d.count * throws
        lo = -units if d.failure is not None and not d.count_failures else 0
        return lo, units
    pen = 1 if d.explode is not None and d.explode.kind == "penetrate" else 0
    values = [d.clamp(v) for v in d.face_values()]
    vmin, vmax = min(values), max(values)
    if d.explode is None and d.keep is None:
        return d.count * vmin, d.count * vmax
    per_die = vmax + (throws - 1) * max(vmax - pen, 0)
    lo = d.count * throws * min(vmin - pen, 0)
    return lo, d.count * max(per_die, 0)
