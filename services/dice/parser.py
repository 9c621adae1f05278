"""Dice notation → AST: a small recursive-descent parser with positioned errors.

Whitespace is free between tokens, except that a dice term's modifiers must follow it
directly: `10d10>=8` counts successes per die, `2d6 >= 9` compares the total.
"""

from __future__ import annotations

from typing import Literal

from services.dice.ast import (
    Call,
    Check,
    CheckOp,
    CmpOp,
    Comparison,
    Dice,
    Explode,
    ExplodeKind,
    Expression,
    Group,
    Keep,
    KeepMode,
    Neg,
    Node,
    Num,
    Product,
    Reroll,
    Sum,
)
from services.dice.errors import DiceLimitError, DiceSyntaxError, DiceValueError
from services.dice.limits import DEFAULT_LIMITS, Limits

_CMP_OPS: tuple[CmpOp, ...] = (">=", "<=", ">", "<", "=")
_CHECK_OPS: tuple[tuple[str, CheckOp], ...] = (
    (">=", ">="),
    ("<=", "<="),
    ("==", "=="),
    (">", ">"),
    ("<", "<"),
    ("=", "=="),
)


def parse(text: str, limits: Limits = DEFAULT_LIMITS) -> Expression:
    """Parse dice notation into an Expression, or raise a DiceError saying why not."""
    if not isinstance(text, str):
        raise DiceSyntaxError("the expression must be a string", position=0)
    if len(text) > limits.max_length:
        raise DiceLimitError(
            f"expression is {len(text)} characters long; the limit is {limits.max_length}",
            code="expression_too_long",
        )
    _check_nesting(text, limits)
    parser = _Parser(text, limits)
    root = parser.check()
    return Expression(text, root)


def _check_nesting(text: str, limits: Limits) -> None:
    """Refuse deep nesting before parsing, so no recursion limit is ever near."""
    depth = 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
            if depth > limits.max_depth:
                raise DiceLimitError(
                    f"parentheses nest deeper than {limits.max_depth} levels",
                    code="expression_too_deep",
                    position=i,
                )
        elif ch == ")":
            depth -= 1


class _Parser:
    def __init__(self, text: str, limits: Limits) -> None:
        self.s = text
        self.n = len(text)
        self.i = 0
        self.limits = limits

    # -- helpers -------------------------------------------------------------------
    def ws(self) -> None:
        s, n, i = self.s, self.n, self.i
        while i < n and s[i] in " \t\r\n":
            i += 1
        self.i = i

    def at(self, tok: str) -> bool:
        return self.s.startswith(tok, self.i)

    def fail(self, expected: list[str], pos: int | None = None) -> DiceSyntaxError:
        p = self.i if pos is None else pos
        found = repr(self.s[p]) if p < self.n else "end of expression"
        return DiceSyntaxError(
            f"unexpected {found} at position {p}; expected {_join(expected)}",
            position=p,
            expected=expected,
        )

    def integer(self, what: str) -> int:
        s, n, start = self.s, self.n, self.i
        i = start
        while i < n and s[i].isdigit() and s[i].isascii():
            i += 1
        if i == start:
            raise self.fail([what])
        if i - start > 15:
            raise DiceLimitError(
                f"number at position {start} is too large (limit {self.limits.max_integer})",
                code="number_too_large",
                position=start,
            )
        value = int(s[start:i])
        if value > self.limits.max_integer:
            raise DiceLimitError(
                f"number {value} at position {start} is too large "
                f"(limit {self.limits.max_integer})",
                code="number_too_large",
                position=start,
            )
        self.i = i
        return value

    # -- grammar -------------------------------------------------------------------
    def check(self) -> Node | Check:
        left = self.sum()
        self.ws()
        for tok, op in _CHECK_OPS:
            if self.at(tok):
                pos = self.i
                self.i += len(tok)
                right = self.sum()
                self.ws()
                if self.i < self.n:
                    raise self.fail(["an operator", "end of expression"])
                return Check(left, op, right, pos)
        if self.i < self.n:
            expected = ["an operator", "a comparison", "end of expression"]
            if self.s[self.i] == ")":
                expected = ["an operator", "end of expression (unbalanced ')')"]
            raise self.fail(expected)
        return left

    def sum(self) -> Node:
        self.ws()
        pos = self.i
        first = self.product()
        rest: list[tuple[Literal["+", "-"], Node]] = []
        while True:
            self.ws()
            if self.i < self.n and self.s[self.i] in "+-":
                op: Literal["+", "-"] = "+" if self.s[self.i] == "+" else "-"
                self.i += 1
                rest.append((op, self.product()))
            else:
                break
        return Sum(first, tuple(rest), pos) if rest else first

    def product(self) -> Node:
        self.ws()
        pos = self.i
        first = self.unary()
        rest: list[tuple[Literal["*", "/"], Node]] = []
        while True:
            self.ws()
            if self.i < self.n and self.s[self.i] in "*/":
                op: Literal["*", "/"] = "*" if self.s[self.i] == "*" else "/"
                self.i += 1
                rest.append((op, self.unary()))
            else:
                break
        return Product(first, tuple(rest), pos) if rest else first

    def unary(self) -> Node:
        # Iterative, so a long run of signs cannot exhaust the stack.
        negative = False
        self.ws()
        pos = self.i
        while self.i < self.n and self.s[self.i] in "+-":
            negative ^= self.s[self.i] == "-"
            self.i += 1
            self.ws()
        node = self.atom()
        return Neg(node, pos) if negative else node

    def atom(self) -> Node:
        self.ws()
        s, i = self.s, self.i
        if i >= self.n:
            raise self.fail(["a number", "dice", "'('", "min(", "max("])
        ch = s[i]
        if ch == "(":
            self.i += 1
            inner = self.sum()
            self.ws()
            if not self.at(")"):
                raise self.fail(["an operator", "')'"])
            self.i += 1
            return Group(inner, i)
        if s.startswith(("min", "max"), i):
            fn: Literal["min", "max"] = "min" if s.startswith("min", i) else "max"
            self.i += 3
            self.ws()
            if not self.at("("):
                raise self.fail(["'(' after " + fn])
            self.i += 1
            args = [self.sum()]
            self.ws()
            while self.at(","):
                self.i += 1
                args.append(self.sum())
                self.ws()
            if not self.at(")"):
                raise self.fail(["','", "')'"])
            self.i += 1
            return Call(fn, tuple(args), i)
        if ch.isdigit() and ch.isascii():
            count = self.integer("a number")
            if self.at("d") and self._dice_follows():
                return self.dice(count, i)
            return Num(count, i)
        if ch == "d" and self._dice_follows():
            return self.dice(1, i)
        raise self.fail(["a number", "dice", "'('", "min(", "max("])

    def _dice_follows(self) -> bool:
        j = self.i + 1
        return j < self.n and (self.s[j] == "%" or (self.s[j].isdigit() and self.s[j].isascii()))

    def dice(self, count: int, pos: int) -> Dice:
        lim = self.limits
        if count > lim.max_dice:
            raise DiceLimitError(
                f"{count} dice at position {pos}; the limit is {lim.max_dice} dice per roll",
                code="too_many_dice",
                position=pos,
            )
        self.i += 1  # the 'd'
        percent = self.at("%")
        if percent:
            self.i += 1
            sides = 100
        else:
            sides_pos = self.i
            sides = self.integer("the number of sides")
            if sides > lim.max_sides:
                raise DiceLimitError(
                    f"a d{sides} at position {pos}; dice may have at most {lim.max_sides} sides",
                    code="too_many_sides",
                    position=sides_pos,
                )
            if sides < 2:
                raise DiceValueError(
                    f"a die needs at least 2 sides (d{sides} at position {pos})",
                    code="invalid_dice",
                    position=sides_pos,
                )
        mods: dict[str, object] = {}
        while True:
            start = self.i
            kind = self.modifier(sides, mods)
            if kind is None:
                break
            if kind in mods:
                raise DiceSyntaxError(
                    f"a second {kind} modifier at position {start}; each kind may appear once",
                    position=start,
                    expected=["a different modifier", "an operator", "end of expression"],
                )
            mods[kind] = self._last
        dice = Dice(
            count,
            sides,
            pos,
            percent=percent,
            reroll=mods.get("reroll"),  # type: ignore[arg-type]
            explode=mods.get("explode"),  # type: ignore[arg-type]
            keep=mods.get("keep"),  # type: ignore[arg-type]
            success=mods.get("success"),  # type: ignore[arg-type]
            failure=mods.get("failure"),  # type: ignore[arg-type]
        )
        _validate(dice, self.limits)
        return dice

    def comparison(self, default: CmpOp | None, what: str) -> Comparison:
        for op in _CMP_OPS:
            if self.at(op):
                self.i += len(op)
                return Comparison(op, self.integer(what))
        if default is not None and self.i < self.n and self.s[self.i].isdigit():
            return Comparison(default, self.integer(what))
        raise self.fail([f"a comparison such as >=N for {what}"])

    def modifier(self, sides: int, mods: dict[str, object]) -> str | None:
        """Parse one modifier glued to the dice term; None when there is none."""
        s, i = self.s, self.i
        if i >= self.n:
            return None
        ch = s[i]
        if ch == "!":
            kind: ExplodeKind = "explode"
            self.i += 1
            if self.at("!"):
                kind, self.i = "compound", self.i + 1
            elif self.at("p"):
                kind, self.i = "penetrate", self.i + 1
            when = None
            if self.i < self.n and (self.s[self.i] in "<>=" or self.s[self.i].isdigit()):
                when = self.comparison("=", "the explosion threshold")
            self._last: object = Explode(kind, when)
            return "explode"
        if ch == "r":
            once = s.startswith("ro", i)
            self.i += 2 if once else 1
            self._last = Reroll(self.comparison("=", "the reroll threshold"), once)
            return "reroll"
        if ch in "kd" and i + 1 < self.n and s[i + 1] in "hl":
            mode: KeepMode = ch + s[i + 1]  # type: ignore[assignment]
            self.i += 2
            n = 1
            if self.i < self.n and s[self.i].isdigit():
                n = self.integer("how many dice")
            self._last = Keep(mode, n)
            return "keep"
        if ch == "k":
            self.i += 1
            n = 1
            if self.i < self.n and s[self.i].isdigit():
                n = self.integer("how many dice")
            self._last = Keep("kh", n)
            return "keep"
        if ch == "f":
            self.i += 1
            self._last = self.comparison("=", "the failure threshold")
            return "failure"
        if ch in "<>=":
            self._last = self.comparison(None, "the success threshold")
            return "success"
        return None


def _validate(d: Dice, limits: Limits) -> None:
    """Refuse dice whose modifiers cannot terminate or make no sense."""
    faces = set(range(1, d.sides + 1))
    reachable = faces
    if d.reroll is not None:
        rerolled = d.reroll.when.faces(d.sides)
        if not d.reroll.once:
            if rerolled >= faces:
                raise DiceValueError(
                    f"{d.notation()} rerolls every face and would never stop",
                    code="infinite_reroll",
                    position=d.pos,
                )
            q = len(rerolled) / d.sides
            if q**limits.max_rerolls > limits.runaway_probability:
                raise DiceLimitError(
                    f"{d.notation()} would too often need more than {limits.max_rerolls} rerolls",
                    code="reroll_limit",
                    position=d.pos,
                )
            reachable = faces - rerolled
    if d.explode is not None:
        exploding = d.explode_faces() & reachable
        if not exploding:
            raise DiceValueError(
                f"{d.notation()} can never explode (no face it can show meets the threshold); "
                "to count successes on exploding dice write the count first, e.g. 5d10>=8!",
                code="invalid_explosion",
                position=d.pos,
            )
        if exploding >= reachable:
            raise DiceValueError(
                f"{d.notation()} explodes on every face it can show and would never stop",
                code="infinite_explosion",
                position=d.pos,
            )
        # Chance one roll explodes, with reroll-once weighting when it applies.
        q = len(exploding) / len(reachable)
        if d.reroll is not None and d.reroll.once:
            m = len(d.reroll.when.faces(d.sides))
            q = sum(d.sides * (f not in d.reroll.when.faces(d.sides)) + m for f in exploding)
            q /= d.sides**2
        if q ** (limits.max_explosions + 1) > limits.runaway_probability:
            raise DiceLimitError(
                f"{d.notation()} would too often explode more than {limits.max_explosions} times",
                code="explosion_limit",
                position=d.pos,
            )
    if d.keep is not None and d.keep.n > d.count and d.explode is None:
        raise DiceValueError(
            f"{d.notation()} keeps or drops {d.keep.n} of only {d.count} dice",
            code="invalid_keep",
            position=d.pos,
        )


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]
