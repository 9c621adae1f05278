"""Vectorised batches: many rolls of one expression at once with numpy.

Totals follow the same rules as `roll`, but the batch draws from its generator in its
own order (a column of first throws, then the explosions), so a batch of n is
reproducible from its seed and n, not equal to n single rolls.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from services.dice.ast import (
    Call,
    Check,
    Comparison,
    Dice,
    Expression,
    Group,
    Neg,
    Node,
    Num,
    Product,
    Sum,
)
from services.dice.errors import DiceEvaluationError, DiceLimitError
from services.dice.limits import DEFAULT_LIMITS, Limits
from services.dice.parser import parse
from services.dice.rng import VectorRng
from services.dice.roller import compile_expression, roll_compiled

Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


@dataclass(frozen=True, slots=True)
class Batch:
    """Totals of n rolls, and for a check the successes and margins."""

    totals: Ints
    success: Bools | None = None
    margins: Ints | None = None


def roll_batch(
    expression: str | Expression, n: int, rng: VectorRng, limits: Limits = DEFAULT_LIMITS
) -> Batch:
    """Roll an expression n times, vectorised."""
    if not 0 <= n <= limits.max_batch:
        raise DiceLimitError(
            f"a batch holds 0..{limits.max_batch} rolls, not {n}", code="batch_too_large"
        )
    expr = parse(expression, limits) if isinstance(expression, str) else expression
    compile_expression(expr, limits)  # the same budget checks as a single roll
    root = expr.root
    if not _vectorisable(root):
        return _loop(expr, n, rng, limits)
    if isinstance(root, Check):
        left = _vec(root.left, n, rng, limits)
        right = _vec(root.right, n, rng, limits)
        if root.op in (">=", ">"):
            margin = left - right
        elif root.op in ("<=", "<"):
            margin = right - left
        else:
            margin = -np.abs(left - right)
        success = margin > 0 if root.op in (">", "<") else margin >= 0
        return Batch(left, success, margin)
    return Batch(_vec(root, n, rng, limits))


def _vectorisable(node: Node | Check) -> bool:
    """Whether numpy can roll it; groups, rounding, special dice and pool keeps loop."""
    from services.dice.ast import DiceGroup, children

    if isinstance(node, DiceGroup) or (isinstance(node, Call) and node.fn not in ("min", "max")):
        return False
    if isinstance(node, Dice):
        pool_keep = node.keep is not None and node.explode is not None
        special = node.values or node.clamped or node.count_failures
        return not (special or (pool_keep and node.explode.kind != "compound"))  # type: ignore[union-attr]
    return all(_vectorisable(c) for c in children(node))


def _loop(expr: Expression, n: int, rng: VectorRng, limits: Limits) -> Batch:
    compiled = compile_expression(expr, limits)
    results = [roll_compiled(compiled, rng) for _ in range(n)]
    totals = np.array([r.total for r in results], dtype=np.int64)
    if isinstance(expr.root, Check):
        success = np.array([r.check.success for r in results if r.check], dtype=np.bool_)
        margins = np.array([r.check.margin for r in results if r.check], dtype=np.int64)
        return Batch(totals, success, margins)
    return Batch(totals)


def _cmp(values: Ints, c: Comparison) -> Bools:
    op, v = c.op, c.value
    out: Bools
    if op == ">=":
        out = values >= v
    elif op == ">":
        out = values > v
    elif op == "<=":
        out = values <= v
    elif op == "<":
        out = values < v
    else:
        out = values == v
    return out


def _vec(node: Node, n: int, rng: VectorRng, limits: Limits) -> Ints:
    if isinstance(node, Num):
        return np.full(n, node.value, dtype=np.int64)
    if isinstance(node, Dice):
        return _dice(node, n, rng, limits)
    if isinstance(node, Group):
        return _vec(node.inner, n, rng, limits)
    if isinstance(node, Neg):
        return -_vec(node.operand, n, rng, limits)
    if isinstance(node, Sum):
        out = _vec(node.first, n, rng, limits)
        for sign, sub in node.rest:
            v = _vec(sub, n, rng, limits)
            out = out + v if sign == "+" else out - v
        return out
    if isinstance(node, Product):
        out = _vec(node.first, n, rng, limits)
        for mul, sub in node.rest:
            v = _vec(sub, n, rng, limits)
            if mul == "*":
                out = out * v
            else:
                if (v == 0).any():
                    raise DiceEvaluationError(
                        f"division by zero: the divisor at position {sub.pos} rolled 0",
                        code="division_by_zero",
                        position=sub.pos,
                    )
                out = out // v
        return out
    assert isinstance(node, Call)
    args = [_vec(a, n, rng, limits) for a in node.args]
    fn = np.minimum if node.fn == "min" else np.maximum
    out = args[0]
    for a in args[1:]:
        out = fn(out, a)
    return out


def _throw(d: Dice, size: int, rng: VectorRng, limits: Limits) -> Ints:
    """`size` throws of one die with the reroll rule applied."""
    faces = rng.integers(d.sides, size)
    faces += 1
    if d.reroll is None:
        return faces
    hit = np.fromiter(d.reroll.when.faces(d.sides), dtype=np.int64)
    mask = np.isin(faces, hit)
    rounds = 0
    while mask.any():
        rounds += 1
        if rounds > limits.max_rerolls:
            raise DiceLimitError(
                f"a die of {d.notation()} needed more than {limits.max_rerolls} rerolls",
                code="reroll_limit",
                position=d.pos,
            )
        faces[mask] = rng.integers(d.sides, int(mask.sum())) + 1
        if d.reroll.once:
            break
        mask = np.isin(faces, hit)
    return faces


def _dice(d: Dice, n: int, rng: VectorRng, limits: Limits) -> Ints:
    first = _throw(d, n * d.count, rng, limits)
    pen = 1 if d.explode is not None and d.explode.kind == "penetrate" else 0
    pool = d.explode is not None and d.explode.kind != "compound"
    # Per die: the unit value (chain sum) and, for pools, the per-throw score so far.
    # `first` is read (score, what explodes) before `value`, the same array, grows.
    value = first
    score = _score(d, first) if pool and d.counting else None
    if d.explode is not None:
        faces = sorted(d.explode_faces())
        boom = np.array(faces, dtype=np.int64)

        def explodes(x: Ints) -> Bools:
            hit: Bools = x == faces[0] if len(faces) == 1 else np.isin(x, boom)
            return hit

        live = np.flatnonzero(explodes(first))
        rounds = 0
        while live.size:
            rounds += 1
            if rounds > limits.max_explosions:
                raise DiceLimitError(
                    f"a die of {d.notation()} exploded more than {limits.max_explosions} times",
                    code="explosion_limit",
                    position=d.pos,
                )
            again = _throw(d, live.size, rng, limits)
            value[live] += again - pen
            if score is not None:
                score[live] += _score(d, again - pen)
            live = live[explodes(again)]
    out: Ints
    if d.count == 1 and d.keep is None:
        out = value if score is None else score
        return _score(d, out) if d.counting and score is None else out
    units = value.reshape(n, d.count)
    if score is not None:
        out = score.reshape(n, d.count).sum(axis=1)
        return out
    if d.keep is not None:
        k, high = d.keep.kept(d.count)
        units = np.sort(units, axis=1)
        units = units[:, d.count - k :] if high else units[:, :k]
    out = _score(d, units).sum(axis=1) if d.counting else units.sum(axis=1)
    return out


def _score(d: Dice, values: Ints) -> Ints:
    out = np.zeros(values.shape, dtype=np.int64)
    if d.success is not None:
        out += _cmp(values, d.success)
    if d.failure is not None:
        out -= _cmp(values, d.failure)
    return out
