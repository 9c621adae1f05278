"""The hot path: an expression compiled to one Python function that returns the total
and records every raw throw. The per-die tree is rebuilt from those throws on demand."""

from __future__ import annotations

from collections.abc import Callable

from services.dice.arith import ROUNDERS, Rational, divide, keep_sum
from services.dice.ast import ROUNDING, Call, Dice, DiceGroup, Group, Neg, Node, Num, Product, Sum
from services.dice.errors import DiceLimitError
from services.dice.limits import Limits
from services.dice.rng import Rng

Below = Callable[[int], int]
FastRunner = Callable[[Below, list[int]], int]
TreeRunner = Callable[[Rng], object]


class Recorder:
    """Wraps a `below` function and records each face (value + 1) it hands out."""

    __slots__ = ("_below", "draws")

    def __init__(self, below: Below, draws: list[int]) -> None:
        self._below = below
        self.draws = draws

    def below(self, n: int) -> int:
        x = self._below(n)
        self.draws.append(x + 1)
        return x


class Replay:
    """An RNG that hands back recorded faces, so the tree evaluator sees the same throws."""

    __slots__ = ("_draws", "_i")

    def __init__(self, draws: list[int]) -> None:
        self._draws = draws
        self._i = 0

    def below(self, n: int) -> int:
        x = self._draws[self._i]
        self._i += 1
        return x - 1


def _product(
    vals: tuple[Rational, ...], steps: tuple[tuple[str, int], ...], exact: bool
) -> Rational:
    total = vals[0]
    for (op, pos), v in zip(steps, vals[1:], strict=True):
        total = total * v if op == "*" else divide(total, v, pos, exact)
    return total


def compile_fast(node: Node, limits: Limits, tree_dice: Callable[[Dice], TreeRunner]) -> FastRunner:
    """Generate `run(below, draws) -> total` for a node."""
    env: dict[str, object] = {}
    source = _emit(node, env, limits, tree_dice, False)
    code = f"def run(below, draws):\n    return {source}\n"
    exec(compile(code, "<dice>", "exec"), env)
    run: FastRunner = env["run"]  # type: ignore[assignment]
    return run


def _emit(
    node: Node,
    env: dict[str, object],
    limits: Limits,
    tree_dice: Callable[[Dice], TreeRunner],
    exact: bool,
) -> str:
    def emit(n: Node, inner_exact: bool = exact) -> str:
        return _emit(n, env, limits, tree_dice, inner_exact)

    if isinstance(node, Num):
        return f"({node.value})"
    if isinstance(node, Group):
        return emit(node.inner)
    if isinstance(node, Neg):
        return f"(-{emit(node.operand)})"
    if isinstance(node, Sum):
        # Long chains go through a helper: generated code stays flat whatever the length.
        terms = [emit(node.first)] + [emit(n) for _, n in node.rest]
        if len(terms) <= 8:
            ops = [op for op, _ in node.rest]
            pairs = zip(ops, terms[1:], strict=True)
            return "(" + terms[0] + "".join(f" {o} {t}" for o, t in pairs) + ")"
        signs = (1, *(1 if op == "+" else -1 for op, _ in node.rest))
        name = f"s{len(env)}"
        env[name] = lambda *vals: sum(s * v for s, v in zip(signs, vals, strict=True))
        return f"{name}({', '.join(terms)})"
    if isinstance(node, Product):
        terms = [emit(node.first)] + [emit(n) for _, n in node.rest]
        steps = tuple((op, n.pos) for op, n in node.rest)
        name = f"p{len(env)}"
        env[name] = lambda *vals: _product(vals, steps, exact)
        return f"{name}({', '.join(terms)})"
    if isinstance(node, DiceGroup):
        # Arguments are evaluated left to right, so the items throw in order.
        name = f"g{len(env)}"
        keep = node.keep
        env[name] = lambda *vals: keep_sum(vals, keep)
        return f"{name}({', '.join(emit(a) for a in node.items)})"
    if isinstance(node, Call):
        if node.fn in ROUNDING:
            name = f"r{len(env)}"
            env[name] = ROUNDERS[node.fn]
            return f"{name}({emit(node.args[0], True)})"
        if len(node.args) == 1:  # min(x) is x; the builtin would want an iterable
            return emit(node.args[0]) if node.fn != "abs" else f"abs({emit(node.args[0])})"
        return f"{node.fn}({', '.join(emit(a) for a in node.args)})"
    name = f"d{len(env)}"
    env[name] = _dice_fast(node, limits, tree_dice)
    return f"{name}(below, draws)"


def _dice_fast(
    d: Dice, limits: Limits, tree_dice: Callable[[Dice], TreeRunner]
) -> Callable[[Below, list[int]], int]:
    sides, count = d.sides, d.count
    if d.values or d.clamped:
        return _via_tree(tree_dice(d))
    if not (d.reroll or d.explode or d.keep or d.counting):

        def plain(below: Below, draws: list[int]) -> int:
            total = 0
            for _ in range(count):
                face = below(sides) + 1
                draws.append(face)
                total += face
            return total

        return plain
    if d.explode is not None and not (d.reroll or d.keep or d.counting):
        explodes = d.explode_faces()
        pen = 1 if d.explode.kind == "penetrate" else 0
        cap = limits.max_explosions

        if count == 1:

            def exploding_one(below: Below, draws: list[int]) -> int:
                face = below(sides) + 1
                draws.append(face)
                if face not in explodes:
                    return face
                total, n = face, 0
                while face in explodes:
                    n += 1
                    if n > cap:
                        raise DiceLimitError(
                            f"a die of {d.notation()} exploded more than {cap} times",
                            code="explosion_limit",
                            position=d.pos,
                        )
                    face = below(sides) + 1
                    draws.append(face)
                    total += face - pen
                return total

            return exploding_one

        def exploding(below: Below, draws: list[int]) -> int:
            total = 0
            for _ in range(count):
                face = below(sides) + 1
                draws.append(face)
                total += face
                n = 0
                while face in explodes:
                    n += 1
                    if n > cap:
                        raise DiceLimitError(
                            f"a die of {d.notation()} exploded more than {cap} times",
                            code="explosion_limit",
                            position=d.pos,
                        )
                    face = below(sides) + 1
                    draws.append(face)
                    total += face - pen
            return total

        return exploding
    return _via_tree(tree_dice(d))


def _via_tree(tree: TreeRunner) -> Callable[[Below, list[int]], int]:
    """The tree evaluator behind the fast interface, recording its draws."""

    def general(below: Below, draws: list[int]) -> int:
        result = tree(Recorder(below, draws))
        value: int = result.value  # type: ignore[attr-defined]
        return value

    return general
