"""Dice notation → AST: a small recursive-descent parser with positioned errors.

Whitespace is free between tokens, except that a dice term's modifiers must follow it
directly: `10d10>=8` counts successes per die, `2d6 >= 9` compares the total.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Literal

from services.dice.ast import (
    D66_FACES,
    FATE_FACES,
    Call,
    Check,
    CheckOp,
    CmpOp,
    Comparison,
    Dice,
    DiceGroup,
    DieKind,
    Explode,
    ExplodeKind,
    Expression,
    FunctionName,
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
from services.dice.errors import (
    DiceAmbiguityError,
    DiceLimitError,
    DiceSyntaxError,
    DiceValueError,
)
from services.dice.limits import DEFAULT_LIMITS, Limits
from services.dice.validate import validate_dice

# A die's `D` where a player typed the notation in capitals (`2D6`, `D%`, `4DF`).
_UPPER_D = re.compile(r"(?<![A-Za-z])D(?=[0-9%F(])")

Modifier = Explode | Reroll | Keep | Comparison | int
_FUNCTIONS: tuple[FunctionName, ...] = ("floor", "ceil", "round", "abs", "min", "max")
_ONE_ARGUMENT = frozenset(("floor", "ceil", "round", "abs"))
MAX_LABEL = 64
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
        if ch in "({":
            depth += 1
            if depth > limits.max_depth:
                raise DiceLimitError(
                    f"parentheses nest deeper than {limits.max_depth} levels",
                    code="expression_too_deep",
                    position=i,
                )
        elif ch in ")}":
            depth -= 1


class _Parser:
    def __init__(self, text: str, limits: Limits) -> None:
        self.s = text
        self.n = len(text)
        self.i = 0
        self.limits = limits
        self.flags: set[str] = set()

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
        # `1D20` is what many players type: the notation's dice are a lowercase d.
        hint = ""
        if found == "'D'":
            lowered = _UPPER_D.sub("d", self.s)
            example = lowered if lowered != self.s and len(lowered) <= 60 else "1d20"
            hint = f" (dice are written with a lowercase d: {example})"
        return DiceSyntaxError(
            f"unexpected {found} at position {p}; expected {_join(expected)}{hint}",
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
        node = self.bare_atom()
        if isinstance(node, Dice | Num):
            label = self.label()
            if label is not None:
                return replace(node, label=label)
        return node

    def label(self) -> str | None:
        """An optional `[label]` after a dice term or a number (Roll20, Foundry flavor)."""
        start = self.i
        self.ws()
        if not self.at("["):
            self.i = start
            return None
        open_pos = self.i
        end = self.s.find("]", open_pos + 1)
        text = self.s[open_pos + 1 : end] if end >= 0 else ""
        if end < 0:
            raise self.fail(["']' closing the label"], self.n)
        bad = next((i for i, c in enumerate(text) if c in "[{}" or not c.isprintable()), None)
        if bad is not None:
            raise self.fail(
                ["a label character (no brackets or control characters)"], open_pos + 1 + bad
            )
        if not text.strip() or len(text) > MAX_LABEL:
            raise DiceSyntaxError(
                f"a label holds 1 to {MAX_LABEL} characters (at position {open_pos})",
                position=open_pos,
                expected=["a label of 1 to 64 characters"],
            )
        self.i = end + 1
        return text.strip()

    def bare_atom(self) -> Node:
        self.ws()
        s, i = self.s, self.i
        starts = ["a number", "dice", "'('", "'{'", "a function such as min( or floor("]
        if i >= self.n:
            raise self.fail(starts)
        ch = s[i]
        if ch == "(":
            self.i += 1
            inner = self.sum()
            self.ws()
            if not self.at(")"):
                raise self.fail(["an operator", "')'"])
            self.i += 1
            return Group(inner, i)
        if ch == "{":
            return self.dice_group()
        fn = next((f for f in _FUNCTIONS if s.startswith(f, i)), None)
        if fn is not None:
            return self.call(fn, i)
        if ch.isdigit() and ch.isascii():
            count = self.integer("a number")
            if self.at("d") and self._dice_follows():
                return self.dice(count, i)
            return Num(count, i)
        if ch == "d" and self._dice_follows():
            return self.dice(1, i)
        raise self.fail(starts)

    def call(self, fn: FunctionName, pos: int) -> Call:
        self.i += len(fn)
        self.ws()
        if not self.at("("):
            raise self.fail(["'(' after " + fn])
        self.i += 1
        args = [self.sum()]
        self.ws()
        while self.at(","):
            if fn in _ONE_ARGUMENT:
                raise self.fail([f"')': {fn} takes one argument"])
            self.i += 1
            args.append(self.sum())
            self.ws()
        if not self.at(")"):
            raise self.fail(["','", "')'"] if fn not in _ONE_ARGUMENT else ["')'"])
        self.i += 1
        return Call(fn, tuple(args), pos)

    def dice_group(self) -> DiceGroup:
        """`{a, b, ...}` with an optional keep/drop among the items' totals (Roll20)."""
        pos = self.i
        self.i += 1
        items = [self.sum()]
        self.ws()
        while self.at(","):
            self.i += 1
            items.append(self.sum())
            self.ws()
        if not self.at("}"):
            raise self.fail(["','", "'}'"])
        self.i += 1
        keep = None
        mod_pos = self.i
        self.refuse_glued_comparison()
        found = self.modifier()
        if found is not None:
            if not isinstance(found[1], Keep):
                raise self.fail(["kh, kl, dh or dl after a dice group"], mod_pos)
            keep = found[1]
        self.refuse_glued_comparison()
        if keep is not None and len(items) == 1:
            raise DiceValueError(
                "keep/drop on a dice group of one item would keep single dice in Roll20 but "
                "the item's total here; write the keep on the dice (4d6kh3) or list items "
                f"separated by commas (at position {pos})",
                code="invalid_group",
                position=pos,
            )
        if keep is not None and keep.n > len(items):
            raise DiceValueError(
                f"the dice group at position {pos} keeps or drops {keep.n} of only "
                f"{len(items)} items",
                code="invalid_keep",
                position=pos,
            )
        return DiceGroup(tuple(items), keep, pos)

    def refuse_glued_comparison(self) -> None:
        if self.i < self.n and self.s[self.i] in "<>=":
            raise DiceAmbiguityError(
                f"a comparison glued to a dice group at position {self.i} is ambiguous: Roll20 "
                "counts the items that pass, Daedalus would compare the total. To compare the "
                "total, put a space before the comparison ({1d20, 1d20}kh1 >= 15); counting "
                "items is not supported",
                position=self.i,
                expected=["a space before the comparison"],
            )

    def _dice_follows(self) -> bool:
        j = self.i + 1
        if j >= self.n:
            return False
        c = self.s[j]
        return c in "%Ff{" or (c.isdigit() and c.isascii())

    def dice(self, count: int, pos: int) -> Dice:
        lim = self.limits
        if count > lim.max_dice:
            raise DiceLimitError(
                f"{count} dice at position {pos}; the limit is {lim.max_dice} dice per roll",
                code="too_many_dice",
                position=pos,
            )
        self.i += 1  # the 'd'
        die_kind, sides, values = self.die(pos)
        percent = die_kind == "percent"
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
        lo, hi = mods.get("min"), mods.get("max")
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
            kind="standard" if die_kind == "percent" else die_kind,
            values=values,
            clamp_min=lo if isinstance(lo, int) and not isinstance(lo, bool) else None,
            clamp_max=hi if isinstance(hi, int) and not isinstance(hi, bool) else None,
            # `cf` alone counts failures up (Foundry); with a success test they subtract.
            count_failures="counted_failure" in self.flags and success is None,
        )
        self.flags.clear()
        validate_dice(dice, self.limits)
        return dice

    def die(self, pos: int) -> tuple[DieKind | Literal["percent"], int, tuple[int, ...]]:
        """What follows the `d`: sides, `%`, `F`, `66t` or `{faces}`."""
        lim = self.limits
        if self.at("%"):
            self.i += 1
            return "percent", 100, ()
        if self.at("F") or self.at("f"):
            self.i += 1
            return "fate", 3, FATE_FACES
        if self.at("{"):
            values = self.face_list(pos)
            return "custom", len(values), values
        # Refusals of the die point at the term (`pos`), as their messages say.
        sides = self.integer("the number of sides")
        if sides == 66 and self.at("t"):
            self.i += 1
            return "d66", 36, D66_FACES
        if sides == 66:
            raise DiceAmbiguityError(
                f"d66 at position {pos} is ambiguous: in tables it is a tens die and a units "
                "die (11..66), elsewhere a 66-sided die. Write d66t for the tables' d66 or "
                "d{1..66} for a 66-sided die",
                position=pos,
                expected=["d66t", "d{1..66}"],
            )
        if sides > lim.max_sides:
            raise DiceLimitError(
                f"a d{sides} at position {pos}; dice may have at most {lim.max_sides} sides",
                code="too_many_sides",
                position=pos,
            )
        if sides < 2:
            raise DiceValueError(
                f"a die needs at least 2 sides (d{sides} at position {pos})",
                code="invalid_dice",
                position=pos,
            )
        return "standard", sides, ()

    def face_list(self, pos: int) -> tuple[int, ...]:
        """`{1,1,2,3}` or `{1..66}` (AnyDice ranges), at most max_sides faces."""
        lim = self.limits
        self.i += 1
        values: list[int] = []
        while True:
            self.ws()
            first = self.signed("a face value")
            self.ws()
            last = first
            if self.at(".."):
                self.i += 2
                self.ws()
                last = self.signed("the end of the range")
                if last < first:
                    raise self.fail([f"a range end of at least {first}"])
            if len(values) + (last - first + 1) > lim.max_sides:
                raise DiceLimitError(
                    f"the die at position {pos} has more than {lim.max_sides} faces",
                    code="too_many_sides",
                    position=pos,
                )
            values.extend(range(first, last + 1))
            self.ws()
            if self.at(","):
                self.i += 1
                continue
            if self.at("}"):
                self.i += 1
                break
            raise self.fail(["','", "'..'", "'}'"])
        if len(values) < 2:
            raise DiceValueError(
                f"a die needs at least 2 faces (at position {pos})",
                code="invalid_dice",
                position=pos,
            )
        return tuple(values)

    def signed(self, what: str) -> int:
        """An integer with an optional minus sign."""
        if self.at("-"):
            self.i += 1
            return -self.integer(what)
        return self.integer(what)

    def comparison(self, default: CmpOp | None, what: str) -> Comparison:
        for op in _CMP_OPS:
            if self.at(op):
                self.i += len(op)
                return Comparison(op, self.signed(what))
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
            return "keep", Keep(mode, self.keep_count(s[i : i + 2]))
        if ch == "k":
            self.i += 1
            return "keep", Keep("kh", self.keep_count("k"))
        if ch == "c" and s.startswith(("cs", "cf"), i):
            # Foundry's spellings of success and failure counting.
            self.i += 2
            if s[i + 1] == "s":
                return "success", self.comparison("=", "the success threshold")
            self.flags.add("counted_failure")
            return "failure", self.comparison("=", "the failure threshold")
        if ch == "m" and s.startswith(("mi", "ma"), i):
            low = s.startswith("mi", i)
            full = "min" if low else "max"
            self.i += 3 if s.startswith(full, i) else 2
            return full, self.signed(f"the per-die {'minimum' if low else 'maximum'}")
        if ch == "f":
            self.i += 1
            return "failure", self.comparison("=", "the failure threshold")
        if ch in "<>=":
            return "success", self.comparison(None, "the success threshold")
        return None

    def keep_count(self, written: str) -> int:
        """The count after keep/drop; a comparison there is refused as ambiguous."""
        if self.i < self.n and self.s[self.i] in "<>=":
            raise DiceAmbiguityError(
                f"'{written}' followed by a comparison at position {self.i} is ambiguous: "
                f"d20 reads {written}>3 as keep the dice above 3, Daedalus would read it as "
                "keep the highest (or lowest) one die, then count it if above 3. Write the "
                "count explicitly (4d6kh1>3 keeps one die, then counts it); keeping dice by "
                "value is not supported, count them instead (4d6>3)",
                position=self.i,
                expected=[f"{written}N", "a count such as 4d6>3"],
            )
        return self.count_or_one()

    def count_or_one(self) -> int:
        """An optional count after keep/drop (1 when absent)."""
        if self.i < self.n and self.s[self.i].isdigit():
            return self.integer("how many dice")
        return 1


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]
