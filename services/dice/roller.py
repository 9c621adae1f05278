"""The roller: an AST compiled once into closures that throw dice with an explicit RNG."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Any

from services.dice.arith import ROUNDERS, Rational, divide, kept_mask
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
    dice_terms,
)
from services.dice.bounds import check_expression
from services.dice.errors import DiceError, DiceLimitError
from services.dice.fastpath import Replay, compile_fast
from services.dice.limits import DEFAULT_LIMITS, Limits
from services.dice.parser import parse
from services.dice.results import (
    CLAMPED,
    COMPOUNDED,
    DROPPED,
    EXPLODED,
    FAILURE,
    PENETRATED,
    REROLLED,
    SUCCESS,
    CheckResult,
    CompositeResult,
    DiceResult,
    GroupResult,
    Result,
    RollResult,
)
from services.dice.rng import HmacRng, Rng

Runner = Callable[[Rng], Result]

# The rolls made under `recording()` in this context (None: nobody is listening).
_RECORD: ContextVar[list[RollResult] | None] = ContextVar("dice_record", default=None)


@contextmanager
def recording() -> Iterator[list[RollResult]]:
    """Collect every roll made inside the block, in order.

    Rules code rolls with `roll()` and returns its own outcome; a caller that also wants
    each die (to render it for a VTT's 3D dice) wraps the call in `recording()`. The
    record is per context (thread or task), so concurrent requests never mix.
    """
    rolls: list[RollResult] = []
    token = _RECORD.set(rolls)
    try:
        yield rolls
    finally:
        _RECORD.reset(token)


def replayed(expression: str, faces: list[int], total: int) -> RollResult | None:
    """A recorded roll (its expression, every face in throw order and its total) as a
    full result with its per-die detail; None when the faces do not replay to that total
    (faces of custom or Fate dice are not their draws)."""
    try:
        compiled = compile_text(expression, DEFAULT_LIMITS)
        result = RollResult(compiled, total, None, list(faces))
        dice = result.dice  # replays the tree (asserts the total)
    except (AssertionError, IndexError, ValueError, DiceError):
        return None
    shown = [d.face for d in dice]
    fits = all(1 <= d.face <= d.sides for d in dice)
    return result if fits and shown == list(faces) else None


def recorded_dice(expression: str, faces: Sequence[int], total: int) -> list[dict[str, Any]] | None:
    """Each die of a recorded roll as `/v1/dice/roll` shows it (`Die.to_dict`), or None
    when the faces do not replay (see `replayed`). Cached: event feeds show the same
    records to many viewers."""
    frozen = _recorded_dice(expression, tuple(faces), total)
    if frozen is None:
        return None
    return [{k: list(v) if isinstance(v, tuple) else v for k, v in die} for die in frozen]


@lru_cache(maxsize=4096)
def _recorded_dice(
    expression: str, faces: tuple[int, ...], total: int
) -> tuple[tuple[tuple[str, Any], ...], ...] | None:
    result = replayed(expression, list(faces), total)
    if result is None:
        return None
    return tuple(
        tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in d.to_dict().items())
        for d in result.dice
    )


class CompiledExpression:
    """An expression ready to roll: a fast total function and a tree builder per side."""

    __slots__ = ("expr", "fast_left", "fast_right", "op", "tree_left", "tree_right")

    def __init__(self, expr: Expression, limits: Limits) -> None:
        root = expr.root
        left, right = (root.left, root.right) if isinstance(root, Check) else (root, None)
        self.expr = expr
        self.op = root.op if isinstance(root, Check) else ""

        def tree_dice(d: Dice) -> Callable[[Rng], object]:
            return _compile_dice(d, limits)

        self.tree_left = _compile(left, limits)
        self.fast_left = compile_fast(left, limits, tree_dice)
        self.tree_right = None if right is None else _compile(right, limits)
        self.fast_right = None if right is None else compile_fast(right, limits, tree_dice)

    def replay(self, draws: list[int]) -> tuple[Result, Result | None]:
        """Rebuild the result trees from recorded faces."""
        rng = Replay(draws)
        left = self.tree_left(rng)
        right = None if self.tree_right is None else self.tree_right(rng)
        return left, right


def roll(
    expression: str | Expression,
    rng: Rng,
    limits: Limits = DEFAULT_LIMITS,
) -> RollResult:
    """Roll an expression with the given generator; dice are thrown left to right."""
    if type(expression) is str:
        c = _CACHE.get(expression) if limits is DEFAULT_LIMITS else None
        if c is None:
            c = compile_text(expression, limits)
            if limits is DEFAULT_LIMITS and len(_CACHE) < 4096:
                _CACHE[expression] = c
    else:
        assert isinstance(expression, Expression)
        c = compile_expression(expression, limits)
    return roll_compiled(c, rng)


def roll_compiled(c: CompiledExpression, rng: Rng) -> RollResult:
    """Roll an already compiled expression."""
    draws: list[int] = []
    below = rng.below
    total = c.fast_left(below, draws)
    meta = None
    if type(rng) is HmacRng and rng.public:
        meta = {"algorithm": "hmac-sha256", "seed": rng.server_seed}
    if c.fast_right is None:
        result = RollResult(c, total, None, draws, meta)
    else:
        target = c.fast_right(below, draws)
        result = RollResult(c, total, _check(c.op, total, target), draws, meta)
    record = _RECORD.get()
    if record is not None:
        record.append(result)
    return result


# Parsed-and-compiled expressions for the default limits, by text (a plain dict is the
# cheapest lookup on the hot path; the lru_cache below serves other limits).
_CACHE: dict[str, CompiledExpression] = {}


@lru_cache(maxsize=2048)
def compile_text(text: str, limits: Limits = DEFAULT_LIMITS) -> CompiledExpression:
    """Parse, check and compile a text, cached by text and limits."""
    return compile_expression(parse(text, limits), limits)


@lru_cache(maxsize=4096)
def dice_thrown(expression: str) -> int:
    """How many dice `expression` throws before explosions and rerolls (each bounded by
    the limits): what a roll of it costs, roughly. 0 when it is not a valid expression."""
    try:
        compiled = compile_text(expression, DEFAULT_LIMITS)
    except DiceError:
        return 0
    return sum(d.count for d in dice_terms(compiled.expr.root))


def compile_expression(expr: Expression, limits: Limits = DEFAULT_LIMITS) -> CompiledExpression:
    """Check an expression's dice budget and compile it for rolling."""
    check_expression(expr, limits)
    return CompiledExpression(expr, limits)


def _check(op: str, total: int, target: int) -> CheckResult:
    if op in (">=", ">"):
        margin = total - target
        success = margin >= 0 if op == ">=" else margin > 0
    elif op in ("<=", "<"):
        margin = target - total
        success = margin >= 0 if op == "<=" else margin > 0
    else:
        margin = -abs(total - target)
        success = margin == 0
    return CheckResult(op, total, target, success, margin)


def _compile(node: Node, limits: Limits, exact: bool = False) -> Runner:
    """The tree evaluator; `exact` inside floor/ceil/round, where division is exact."""
    if isinstance(node, Num):
        const = Result(node, node.value)
        return lambda rng: const
    if isinstance(node, Dice):
        return _compile_dice(node, limits)
    if isinstance(node, Group | Neg):
        inner = _compile(node.inner if isinstance(node, Group) else node.operand, limits, exact)
        sign = 1 if isinstance(node, Group) else -1

        def unary(rng: Rng) -> Result:
            part = inner(rng)
            return CompositeResult(node, sign * part.value, [part])

        return unary
    if isinstance(node, Sum):
        fns = [_compile(node.first, limits, exact)]
        fns += [_compile(n, limits, exact) for _, n in node.rest]
        signs = [1] + [1 if op == "+" else -1 for op, _ in node.rest]
        if all(s == 1 for s in signs):

            def add(rng: Rng) -> Result:
                results = [fn(rng) for fn in fns]
                return CompositeResult(node, sum([r.value for r in results]), results)

            return add

        def add_signed(rng: Rng) -> Result:
            results = [fn(rng) for fn in fns]
            total = sum([s * r.value for s, r in zip(signs, results, strict=True)])
            return CompositeResult(node, total, results)

        return add_signed
    if isinstance(node, Product):
        first = _compile(node.first, limits, exact)
        rest = [(op, _compile(n, limits, exact), n) for op, n in node.rest]

        def multiply(rng: Rng) -> Result:
            r = first(rng)
            results = [r]
            total: Rational = r.value
            for op, fn, sub in rest:
                r = fn(rng)
                results.append(r)
                total = total * r.value if op == "*" else divide(total, r.value, sub.pos, exact)
            return CompositeResult(node, total, results)

        return multiply
    if isinstance(node, DiceGroup):
        items = [_compile(n, limits, exact) for n in node.items]
        group: DiceGroup = node

        def dice_group(rng: Rng) -> Result:
            results = [fn(rng) for fn in items]
            kept = kept_mask([r.value for r in results], group.keep)
            for r, k in zip(results, kept, strict=True):
                if not k:
                    _drop(r)
            total = sum((r.value for r, k in zip(results, kept, strict=True) if k), start=0)
            return GroupResult(group, total, results, kept)

        return dice_group
    return _compile_call(node, limits, exact)


def _compile_call(call: Call, limits: Limits, exact: bool) -> Runner:
    if call.fn in ROUNDING:
        inner = _compile(call.args[0], limits, exact=True)
        rounder = ROUNDERS[call.fn]

        def rounding(rng: Rng) -> Result:
            part = inner(rng)
            return CompositeResult(call, rounder(part.value), [part])

        return rounding
    args = [_compile(a, limits, exact) for a in call.args]
    if call.fn == "abs":

        def absolute(rng: Rng) -> Result:
            part = args[0](rng)
            return CompositeResult(call, abs(part.value), [part])

        return absolute
    pick = min if call.fn == "min" else max

    def function(rng: Rng) -> Result:
        results = [fn(rng) for fn in args]
        return CompositeResult(call, pick(r.value for r in results), results)

    return function


def _drop(res: Result) -> None:
    """Flag every throw under a dropped group item as dropped."""
    stack = [res]
    while stack:
        cur = stack.pop()
        if isinstance(cur, DiceResult):
            for r in cur.rolls:
                r[2] |= DROPPED
        elif isinstance(cur, CompositeResult):
            stack.extend(cur.parts)


def _compile_dice(d: Dice, limits: Limits) -> Runner:
    sides, count = d.sides, d.count
    values = d.values  # empty for numbered dice, whose face is the draw + 1
    rerolls = d.reroll.when.passing(d.face_values()) if d.reroll else frozenset()
    once = bool(d.reroll and d.reroll.once)
    explodes = d.explode_faces()
    kind = d.explode.kind if d.explode else ""
    pen = 1 if kind == "penetrate" else 0
    chain_flag = COMPOUNDED if kind == "compound" else (PENETRATED if pen else 0)
    max_rr, max_ex = limits.max_rerolls, limits.max_explosions
    clamp = d.clamp if d.clamped else None
    plain = not (rerolls or explodes or d.keep or d.counting or values or clamp)

    def draw(below: Callable[[int], int]) -> int:
        return values[below(sides)] if values else below(sides) + 1

    def throw(below: Callable[[int], int], rolls: list[list[int]], die: int) -> int:
        face = draw(below)
        n = 0
        while face in rerolls:
            rolls.append([face, face, REROLLED, die])
            n += 1
            if n > max_rr:
                raise DiceLimitError(
                    f"a die of {d.notation()} needed more than {max_rr} rerolls",
                    code="reroll_limit",
                    position=d.pos,
                )
            face = draw(below)
            if once:
                break
        return face

    def record(rolls: list[list[int]], face: int, drop: int, flags: int, die: int) -> None:
        value = face if clamp is None else clamp(face)
        if value != face:
            flags |= CLAMPED
        rolls.append([face, value - drop, flags, die])

    def run(rng: Rng) -> Result:
        below = rng.below
        rolls: list[list[int]] = []
        if plain:
            total = 0
            for die in range(count):
                face = below(sides) + 1
                rolls.append([face, face, 0, die])
                total += face
            return DiceResult(d, total, rolls)
        for die in range(count):
            face = throw(below, rolls, die)
            if face not in explodes:
                record(rolls, face, 0, 0, die)
                continue
            n, drop = 0, 0
            while face in explodes:
                record(rolls, face, drop, EXPLODED | (chain_flag if n else 0), die)
                n += 1
                if n > max_ex:
                    raise DiceLimitError(
                        f"a die of {d.notation()} exploded more than {max_ex} times",
                        code="explosion_limit",
                        position=d.pos,
                    )
                face = throw(below, rolls, die)
                drop = pen
            record(rolls, face, drop, chain_flag, die)
        return DiceResult(d, _settle(d, rolls, kind == "compound"), rolls)

    return run


def _settle(d: Dice, rolls: list[list[int]], compound: bool) -> int:
    """Apply keep/drop and success counting to the throws; return the term's value."""
    units: list[tuple[int, list[list[int]]]]
    if compound:
        chains: dict[int, list[list[int]]] = {}
        for r in rolls:
            if not r[2] & REROLLED:
                chains.setdefault(r[3], []).append(r)
        units = [(sum(r[1] for r in chain), chain) for chain in chains.values()]
    else:
        units = [(r[1], [r]) for r in rolls if not r[2] & REROLLED]
    if d.keep is not None:
        k, high = d.keep.kept(len(units))
        order = sorted(range(len(units)), key=lambda i: units[i][0], reverse=high)
        kept = set(order[:k])
        for i, (_, members) in enumerate(units):
            if i not in kept:
                for r in members:
                    r[2] |= DROPPED
        units = [u for i, u in enumerate(units) if i in kept]
    if not d.counting:
        return sum(v for v, _ in units)
    total = 0
    for value, members in units:
        score = d.score(value)
        total += score
        flags = (SUCCESS if d.success is not None and d.success.test(value) else 0) | (
            FAILURE if d.failure is not None and d.failure.test(value) else 0
        )
        for r in members:
            r[2] |= flags
    return total
