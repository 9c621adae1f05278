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
from services.dice.validate import validate_dice

Modifier = Explode | Reroll | Keep | Comparison
_KEEP_MODES: dict[str, KeepMode] = {"kh": "kh", "kl": "kl", "dh": "dh", "dl": "dl"}
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
        mods: dict[str, Modifier] = {}
        while True:
            start = self.i
            found = self.modifier()
            if found is None:
                break
            kind, value = found
            if kind in mods:
                raise DiceSyntaxError(
                    f"a second {kind} modifier at position {start}; each kind may appear once",
                    position=start,
                    expected=["a different modifier", "an operator", "end of expression"],
                )
            mods[kind] = value
        reroll, explode, keep = mods.get("reroll"), mods.get("explode"), mods.get("keep")
        success, failure = mods.get("success"), mods.get("failure")
        dice = Dice(
            count,
            sides,
            pos,
            percent=percent,
            reroll=reroll if isinstance(reroll, Reroll) else None,
            explode=explode if isinstance(explode, Explode) else None,
            keep=keep if isinstance(keep, Keep) else None,
            success=success if isinstance(success, Comparison) else None,
            failure=failure if isinstance(failure, Comparison) else None,
        )
        validate_dice(dice, self.limits)
        return dice

    def comparison(self, default: CmpOp | None, what: str) -> Comparison:
        for op in _CMP_OPS:
            if self.at(op):
                self.i += len(op)
                return Comparison(op, self.integer(what))
        if default is not None and self.i < self.n and self.s[self.i].isdigit():
            return Comparison(default, self.integer(what))
        raise self.fail([f"a comparison such as >=N for {what}"])

    def modifier(self) -> tuple[str, Modifier] | None:
        """Parse one modifier glued to the dice term: (kind, value), or None."""
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
            return "explode", Explode(kind, when)
        if ch == "r":
            once = s.startswith("ro", i)
            self.i += 2 if once else 1
            return "reroll", Reroll(self.comparison("=", "the reroll threshold"), once)
        if ch in "kd" and i + 1 < self.n and s[i + 1] in "hl":
            mode: KeepMode = (
                "kh"
                if ch == "k" and s[i + 1] == "h"
                else ("kl" if ch == "k" else ("dh" if s[i + 1] == "h" else "dl"))
            )
            self.i += 2
            return "keep", Keep(mode, self.count_or_one())
        if ch == "k":
            self.i += 1
            return "keep", Keep("kh", self.count_or_one())
        if ch == "f":
            self.i += 1
            return "failure", self.comparison("=", "the failure threshold")
        if ch in "<>=":
            return "success", self.comparison(None, "the success threshold")
        return None

    def count_or_one(self) -> int:
        """An optional count after keep/drop (1 when absent)."""
        if self.i < self.n and self.s[self.i].isdigit():
            return self.integer("how many dice")
        return 1


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]
