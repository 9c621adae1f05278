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
from services.dice.rng import VectorRng
from services.dice.roller import (
    CompiledExpression,
    compile_expression,
    compile_text,
    roll_compiled,
)

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
    # Compiled for the same budget checks as a single roll (and for rolls that loop).
    if isinstance(expression, str):
        compiled = compile_text(expression, limits)
    else:
        compiled = compile_expression(expression, limits)
    root = compiled.expr.root
    if not _vectorisable(root):
        return _loop(compiled, n, rng)
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


def _loop(compiled: CompiledExpression, n: int, rng: VectorRng) -> Batch:
    results = [roll_compiled(compiled, rng) for _ in range(n)]
    totals = np.array([r.total for r in results], dtype=np.int64)
    if isinstance(compiled.expr.root, Check):
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
    faces = rng.integers(d.sides, size, 1)
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
        faces[mask] = rng.integers(d.sides, int(mask.sum()), 1)
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
        _explode(d, value, score, rng, limits, pen)
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


def _explode(
    d: Dice, value: Ints, score: Ints | None, rng: VectorRng, limits: Limits, pen: int
) -> None:
    """Throw again, round by round, every die that showed an exploding face: `value` gets
    what each chain adds, `score` (pools that count) each throw's score."""
    faces = sorted(d.explode_faces())
    boom = np.array(faces, dtype=np.int64)
    live = _showing(value, faces)  # the dice that explode, in order
    if not live.size:
        return
    # What each live die's chain adds, kept compact and added to `value` once at the end;
    # `at`: after the first round, the positions in `added` of the chains still going.
    added = np.empty(0, dtype=np.int64)
    at: npt.NDArray[np.intp] | None = None
    rounds = 0
    while at is None or at.size:
        rounds += 1
        if rounds > limits.max_explosions:
            raise DiceLimitError(
                f"a die of {d.notation()} exploded more than {limits.max_explosions} times",
                code="explosion_limit",
                position=d.pos,
            )
        again = _throw(d, live.size if at is None else at.size, rng, limits)
        going = again == faces[0] if len(faces) == 1 else np.isin(again, boom)
        if pen:
            again -= pen
        if at is None:  # the first round: every live die
            added = again
            if score is not None:
                score[live] += _score(d, again)
            at = np.flatnonzero(going)
            continue
        added[at] += again
        if score is not None:
            score[live[at]] += _score(d, again)
        at = at[going]
    if len(faces) == 1:  # every live die showed that face: no need to read it back
        added += faces[0]
        value[live] = added
    else:
        value[live] += added


def _showing(x: Ints, faces: list[int]) -> npt.NDArray[np.intp]:
    """The indices of x's throws that show one of `faces`.

    numpy scans a bool array at most 10% true with memchr, 2-3 times slower than its
    branchless scan from about 3% true up: an exploding d10 shows its face 10% of the
    time, a d20 5%. The mask is written into a longer buffer whose tail, set true when
    the mask is in that band, moves it over 10%, onto the branchless scan.
    """
    n = x.size
    buf = np.empty(n + n // 9 + 2, dtype=np.bool_)
    mask = buf[:n]
    if len(faces) == 1:
        np.equal(x, faces[0], out=mask)
    else:
        mask[:] = np.isin(x, faces)
    count = int(np.count_nonzero(mask))
    if n < 4096 or not n / 32 <= count <= n / 10:
        return np.flatnonzero(mask)
    pad = max(0, -(-(n - 10 * count) // 9)) + 1  # (count + pad) / (n + pad) > 1/10
    buf[n : n + pad] = True
    return np.flatnonzero(buf[: n + pad])[:count]


def _score(d: Dice, values: Ints) -> Ints:
    out = np.zeros(values.shape, dtype=np.int64)
    if d.success is not None:
        out += _cmp(values, d.success)
    if d.failure is not None:
        out -= _cmp(values, d.failure)
    return out
