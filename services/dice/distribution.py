"""Exact distribution of a whole expression: priced from the AST first, then computed."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache, reduce

from services.dice import rational
from services.dice.arith import Rational
from services.dice.ast import (
    ROUNDING,
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
    children,
    dice_terms,
)
from services.dice.bounds import check_expression, value_bounds
from services.dice.errors import DiceEvaluationError, DiceLimitError, DistributionUnsupported
from services.dice.exact import (
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
from services.dice.pricing import estimate, estimate_shape
from services.dice.rational import (
    QDist,
    abs_dist,
    add_interval,
    group_keep,
    lift,
    lower,
)
from services.dice.report import ProbabilityReport
from services.dice.termdist import term_distribution


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
                _refuse_zero_divisor(d, sub.pos)
                acc = pairwise(acc, d, lambda x, y: x // y, div_interval, budget)
        return acc
    if isinstance(node, DiceGroup):
        if node.keep is None:
            return _dist(
                Sum(node.items[0], tuple(("+", i) for i in node.items[1:]), node.pos),
                limits,
                eps,
                budget,
            )
        items = [lift(_dist(i, limits, eps, budget)) for i in node.items]
        return lower(group_keep(items, node.keep, budget))
    if node.fn in ROUNDING:
        return lower(_qdist(node.args[0], limits, eps, budget), node.fn)
    if node.fn == "abs":
        return lower(abs_dist(lift(_dist(node.args[0], limits, eps, budget))))
    fn, interval = (min, min_interval) if node.fn == "min" else (max, max_interval)
    dists = [_dist(a, limits, eps, budget) for a in node.args]
    return reduce(lambda a, b: pairwise(a, b, fn, interval, budget), dists)


def _can_be_zero(d: Dist | QDist) -> bool:
    """Whether 0 is among a distribution's values, or within its unenumerated tail."""
    return 0 in d.pmf or bool(d.tail and d.tlo <= 0 <= d.thi)


def _refuse_zero_divisor(d: Dist | QDist, pos: int) -> None:
    if _can_be_zero(d):
        raise DiceEvaluationError(
            f"the divisor at position {pos} can be 0, so the expression has no distribution",
            code="division_by_zero",
            position=pos,
        )


def _divides(node: Node) -> bool:
    """Whether a division occurs below node outside a nested rounding function."""
    if isinstance(node, Product) and any(op == "/" for op, _ in node.rest):
        return True
    if isinstance(node, Call) and node.fn in ROUNDING:
        return False
    return any(_divides(c) for c in children(node))


def _qdist(node: Node, limits: Limits, eps: float, budget: Budget) -> QDist:
    """Distribution of node where `/` is exact (the argument of floor/ceil/round)."""
    if not _divides(node):
        return lift(_dist(node, limits, eps, budget))
    if isinstance(node, Group):
        return _qdist(node.inner, limits, eps, budget)
    if isinstance(node, Neg):
        d = _qdist(node.operand, limits, eps, budget)
        return rational.mapped(d, lambda v: -v, -d.thi, -d.tlo)
    if isinstance(node, Sum):
        acc = _qdist(node.first, limits, eps, budget)
        for op, sub in node.rest:
            d = _qdist(sub, limits, eps, budget)
            if op == "-":
                d = rational.mapped(d, lambda v: -v, -d.thi, -d.tlo)
            acc = rational.pairwise(acc, d, lambda x, y: x + y, add_interval, budget)
        return acc
    if isinstance(node, Product):
        acc = _qdist(node.first, limits, eps, budget)
        for mul, sub in node.rest:
            d = _qdist(sub, limits, eps, budget)
            if mul == "*":
                acc = rational.pairwise(acc, d, lambda x, y: x * y, rational.mul_interval, budget)
                continue
            _refuse_zero_divisor(d, sub.pos)
            acc = rational.pairwise(acc, d, _exact_div, rational.div_interval, budget)
        return acc
    if isinstance(node, DiceGroup):
        items = [_qdist(i, limits, eps, budget) for i in node.items]
        if node.keep is not None:
            return group_keep(items, node.keep, budget)
        return reduce(
            lambda a, b: rational.pairwise(a, b, lambda x, y: x + y, add_interval, budget), items
        )
    assert isinstance(node, Call)
    if node.fn == "abs":
        return abs_dist(_qdist(node.args[0], limits, eps, budget))
    pick = min if node.fn == "min" else max
    iv = min_interval if node.fn == "min" else max_interval
    dists = [_qdist(a, limits, eps, budget) for a in node.args]
    return reduce(
        lambda a, b: rational.pairwise(a, b, pick, iv, budget),  # type: ignore[arg-type]
        dists,
    )


def _exact_div(x: Rational, y: Rational) -> Rational:
    q = Fraction(x) / y
    return q.numerator if q.denominator == 1 else q


def check_rollable(expression: str | Expression, limits: Limits = DEFAULT_LIMITS) -> Expression:
    """Refuse an expression that parses but can fail when rolled; return it parsed.

    For expressions kept to be rolled later (a party member's profile, a labyrinth's
    tables): a roll that fails in play stops the game at that roll, where refusing the
    expression when it is given names the field to fix. Two failures can be told from
    the AST: the roller's own price check (`too_many_dice`, `value_too_large`: every
    roll fails) and a divisor that can be 0 (`division_by_zero`: some rolls fail).
    A divisor whose value bounds (`bounds.py`) leave out 0 is never 0: that costs
    nothing, and it is most divisors. The bounds hold for floor division, and for the
    exact division inside floor/ceil/round when the divisor has no division of its own.
    Any other divisor gets the test `probability` makes (`_can_be_zero` on its exact
    distribution), run on each divisor alone so an expression whose whole distribution
    is too large is still checked, within CHECK_STEPS and CHECK_VALUES for the whole
    expression: the check runs as the request is validated, unpriced, so it costs at
    most what the dearest one-token odds do. A divisor it cannot enumerate there is
    refused as not shown to be nonzero. Explosion and reroll caps are not counted: the
    parser already refuses a die that could plausibly reach them.
    """
    expr = parse(expression, limits) if isinstance(expression, str) else expression
    check_expression(expr, limits)
    eps = limits.tail_bound / max(1, sum(d.count for d in dice_terms(expr.root)))
    budget = Budget(CHECK_STEPS, CHECK_VALUES)
    for divisor, exact in _divisors(expr.root, exact=False):
        if isinstance(divisor, Num):
            if divisor.value == 0:
                raise _zero_divisor(divisor.pos, "is 0")
            continue
        if not exact or next(_divisors(divisor, exact), None) is None:
            lo, hi = value_bounds(divisor, limits)
            if not lo <= 0 <= hi:
                continue
        try:
            estimate(divisor, limits, eps)
            d = (
                _qdist(divisor, limits, eps, budget)
                if exact
                else _dist(divisor, limits, eps, budget)
            )
        except (DiceLimitError, DistributionUnsupported):
            raise _zero_divisor(
                divisor.pos, "could not be shown never to be 0 (too many values to check)"
            ) from None
        if _can_be_zero(d):
            raise _zero_divisor(divisor.pos, "can be 0")
    return expr


# What `check_rollable` may spend enumerating divisors, for a whole expression. A
# definition holds up to a thousand table rows, each checked as the request is read: a
# divisor that can reach 0 by its bounds and needs more than this to show it does not
# (none a table writes: 1d20/(1d4-1) takes a dozen steps) is refused.
CHECK_STEPS = 5_000
CHECK_VALUES = 2_000


def _zero_divisor(pos: int, why: str) -> DiceEvaluationError:
    return DiceEvaluationError(
        f"the divisor at position {pos} {why}, and a roll dividing by 0 fails; "
        "write a divisor that cannot be 0 (max(1, ...), for one)",
        code="division_by_zero",
        position=pos,
    )


def _divisors(node: Node | Check, exact: bool) -> Iterator[tuple[Node, bool]]:
    """Every divisor below node, with whether its division is exact (inside floor, ceil or
    round, as the roller and `_qdist` evaluate it)."""
    if isinstance(node, Product):
        yield from ((sub, exact) for op, sub in node.rest if op == "/")
    inner = exact or (isinstance(node, Call) and node.fn in ROUNDING)
    for child in children(node):
        yield from _divisors(child, inner)


@dataclass(frozen=True, slots=True)
class Quote:
    """What an exact distribution will cost, known before computing it."""

    cost: int  # elementary steps (pairs combined, DP cells), at most Limits.max_cost
    points: int  # distinct values of the largest table in the answer (an upper bound)


def quote(text: str, limits: Limits = DEFAULT_LIMITS) -> Quote:
    """The price of `probability(text)`, from the AST alone; refuses (like `probability`)
    an expression too costly to compute."""
    expr, eps = _plan(text, limits)
    cost, points = estimate_shape(expr.root, limits, eps)
    return Quote(cost, points)


@lru_cache(maxsize=1024)
def _plan(text: str, limits: Limits) -> tuple[Expression, float]:
    """Parse and price an expression once per text (both are pure)."""
    return _priced(parse(text, limits), limits)


def _priced(expr: Expression, limits: Limits) -> tuple[Expression, float]:
    """Refuse an expression too costly to compute; return it with its per-die tail bound."""
    check_expression(expr, limits)
    terms = dice_terms(expr.root)
    eps = limits.tail_bound / max(1, sum(d.count for d in terms))
    estimate(expr.root, limits, eps)
    return expr, eps
