"""Exact distribution of a whole expression: priced from the AST first, then computed."""

from __future__ import annotations

import math
from functools import lru_cache, reduce

from services.dice.ast import (
    Call,
    Check,
    Dice,
    Expression,
    Group,
    Neg,
    Node,
    Num,
    Product,
    Sum,
    dice_terms,
)
from services.dice.errors import DiceEvaluationError, DiceLimitError
from services.dice.exact import (
    Bound,
    Budget,
    Dist,
    add,
    const,
    div_interval,
    max_interval,
    min_interval,
    mul_interval,
    neg,
    pairwise,
    shift,
)
from services.dice.limits import DEFAULT_LIMITS, Limits
from services.dice.parser import parse
from services.dice.report import ProbabilityReport
from services.dice.termdist import single_roll, term_distribution


def probability(expression: str | Expression, limits: Limits = DEFAULT_LIMITS) -> ProbabilityReport:
    """Exact distribution of an expression (and of its check's margin, if it has one)."""
    if isinstance(expression, str):
        expr, eps = _plan(expression, limits)
    else:
        expr, eps = _priced(expression, limits)
    budget = Budget(limits.max_cost, limits.max_support)
    root = expr.root
    if isinstance(root, Check):
        left = _dist(root.left, limits, eps, budget)
        right = _dist(root.right, limits, eps, budget)
        return ProbabilityReport.build(expr, left, root.op, right, budget)
    return ProbabilityReport.build(expr, _dist(root, limits, eps, budget), None, None, budget)


def _dist(node: Node, limits: Limits, eps: float, budget: Budget) -> Dist:
    if isinstance(node, Num):
        return const(node.value)
    if isinstance(node, Dice):
        return term_distribution(node, limits, eps, budget)
    if isinstance(node, Group):
        return _dist(node.inner, limits, eps, budget)
    if isinstance(node, Neg):
        return neg(_dist(node.operand, limits, eps, budget))
    if isinstance(node, Sum):
        # Constants fold into one final shift instead of a pass over the pmf each.
        offset = 0
        out: Dist | None = None
        for op, sub in (("+", node.first), *node.rest):
            sign = 1 if op == "+" else -1
            if isinstance(sub, Num):
                offset += sign * sub.value
                continue
            d = _dist(sub, limits, eps, budget)
            d = d if sign > 0 else neg(d)
            out = d if out is None else add(out, d, budget)
        return const(offset) if out is None else shift(out, offset) if offset else out
    if isinstance(node, Product):
        acc = _dist(node.first, limits, eps, budget)
        for mul, sub in node.rest:
            d = _dist(sub, limits, eps, budget)
            if mul == "*":
                acc = pairwise(acc, d, lambda x, y: x * y, mul_interval, budget)
            else:
                if 0 in d.pmf or (d.tail and d.tlo <= 0 <= d.thi):
                    raise DiceEvaluationError(
                        f"the divisor at position {sub.pos} can be 0, so the expression "
                        "has no distribution",
                        code="division_by_zero",
                        position=sub.pos,
                    )
                acc = pairwise(acc, d, lambda x, y: x // y, div_interval, budget)
        return acc
    fn, interval = (min, min_interval) if node.fn == "min" else (max, max_interval)
    dists = [_dist(a, limits, eps, budget) for a in node.args]
    return reduce(lambda a, b: pairwise(a, b, fn, interval, budget), dists)


@lru_cache(maxsize=1024)
def _plan(text: str, limits: Limits) -> tuple[Expression, float]:
    """Parse and price an expression once per text (both are pure)."""
    return _priced(parse(text, limits), limits)


def _priced(expr: Expression, limits: Limits) -> tuple[Expression, float]:
    """Refuse an expression too costly to compute; return it with its per-die tail bound."""
    terms = dice_terms(expr.root)
    eps = limits.tail_bound / max(1, sum(d.count for d in terms))
    estimate(expr.root, limits, eps)
    return expr, eps


# -- pricing before work -------------------------------------------------------------


def estimate(node: Node | Check, limits: Limits, eps: float) -> None:
    """Refuse, before computing anything, an expression whose distribution is too big."""
    cost = [0]

    def refuse(what: str) -> DiceLimitError:
        return DiceLimitError(
            f"the exact distribution of this expression is too large to compute ({what}; "
            f"limits: {limits.max_support} values, {limits.max_cost} steps)",
            code="distribution_too_large",
        )

    def check(lo: Bound, hi: Bound, size: int) -> tuple[Bound, Bound, int]:
        if size > limits.max_support:
            raise refuse(f"about {size} distinct values")
        if cost[0] > limits.max_cost:
            raise refuse(f"about {cost[0]} steps")
        return lo, hi, size

    def pair(
        a: tuple[Bound, Bound, int], b: tuple[Bound, Bound, int], interval: object
    ) -> tuple[Bound, Bound, int]:
        cost[0] += a[2] * b[2]
        lo, hi = interval(a[0], a[1], b[0], b[1])  # type: ignore[operator]
        return check(lo, hi, min(a[2] * b[2], _span(lo, hi)))

    def est(n: Node) -> tuple[Bound, Bound, int]:
        if isinstance(n, Num):
            return n.value, n.value, 1
        if isinstance(n, Dice):
            return check(*_dice_range(n, eps, cost))
        if isinstance(n, Group):
            return est(n.inner)
        if isinstance(n, Neg):
            lo, hi, size = est(n.operand)
            return -hi, -lo, size
        if isinstance(n, Sum):
            parts = [est(n.first)] + [est(s) for _, s in n.rest]
            signs = [1] + [1 if op == "+" else -1 for op, _ in n.rest]
            lo = sum(p[0] if s > 0 else -p[1] for s, p in zip(signs, parts, strict=True))
            hi = sum(p[1] if s > 0 else -p[0] for s, p in zip(signs, parts, strict=True))
            cost[0] += sum(p[2] for p in parts) * len(parts)
            return check(lo, hi, min(_span(lo, hi), math.prod(p[2] for p in parts)))
        if isinstance(n, Product):
            acc = est(n.first)
            for op, s in n.rest:
                acc = pair(acc, est(s), mul_interval if op == "*" else div_interval)
            return acc
        assert isinstance(n, Call)
        interval = min_interval if n.fn == "min" else max_interval
        return reduce(lambda a, b: pair(a, b, interval), [est(a) for a in n.args])

    if isinstance(node, Check):
        left, right = est(node.left), est(node.right)
        check(0, 0, left[2] + right[2])
        cost[0] += left[2] * right[2]
        check(0, 0, min(left[2] * right[2], _span(left[0] - right[1], left[1] - right[0])))
    else:
        est(node)


def _span(lo: Bound, hi: Bound) -> int:
    if math.isinf(lo) or math.isinf(hi):
        return 1 << 62
    return int(hi - lo) + 1


def _dice_range(d: Dice, eps: float, cost: list[int]) -> tuple[Bound, Bound, int]:
    roll, den = single_roll(d)
    faces = sorted(roll)
    explodes = d.explode_faces() & set(faces)
    levels = 1
    if explodes:
        q = sum(roll[f] for f in explodes) / den
        levels = max(1, math.ceil(math.log(eps) / math.log(q)))
    per_lo, per_hi = faces[0], faces[-1] * levels
    if d.counting:
        per_lo, per_hi = -levels, levels
    n = d.count
    if d.keep is not None:
        k, _ = d.keep.kept(n)
        span = per_hi - per_lo + 1
        # values × (placed, score) states × choices per state
        cost[0] += span * max(k, 1) * max(k, 1) * span * (n + 1) // 2
        n = k
    cost[0] += len(faces) * levels * levels
    lo, hi = n * per_lo, n * per_hi
    return lo, hi, _span(lo, hi)
