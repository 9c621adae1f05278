"""What `probability` returns: the distribution, its summary, and a check's odds."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from services.dice.ast import Expression, formula
from services.dice.exact import Bound, Budget, Dist, add, neg

PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)


def _frac(f: Fraction) -> dict[str, Any]:
    return {"fraction": f"{f.numerator}/{f.denominator}", "float": float(f)}


def _bound(x: Bound) -> int | None:
    return None if math.isinf(x) else int(x)


@dataclass(frozen=True, slots=True)
class Odds:
    """P(event) ∈ [low, low + error]; exact when error is 0."""

    low: Fraction
    error: Fraction

    @property
    def exact(self) -> bool:
        """Whether the probability is known exactly."""
        return self.error == 0

    def to_dict(self) -> dict[str, Any]:
        """JSON: the probability as a fraction and a float, and its error bound."""
        return {
            **_frac(self.low),
            "exact": self.exact,
            "error_bound": f"{self.error.numerator}/{self.error.denominator}",
        }


_TESTS: dict[str, Any] = {
    ">=": lambda v, c: v >= c,
    ">": lambda v, c: v > c,
    "<=": lambda v, c: v <= c,
    "<": lambda v, c: v < c,
    "==": lambda v, c: v == c,
}


def odds(d: Dist, op: str, c: int) -> tuple[Odds, Odds]:
    """(P(X op c), P(not X op c)).

    The enumerated part gives the probability; the tail is added when it lies wholly on
    the success side, and becomes the error bound when it straddles the threshold.
    """
    items = d.pmf.items()
    if op == ">=":
        hit = sum([w for v, w in items if v >= c])
    elif op == ">":
        hit = sum([w for v, w in items if v > c])
    elif op == "<=":
        hit = sum([w for v, w in items if v <= c])
    elif op == "<":
        hit = sum([w for v, w in items if v < c])
    else:
        hit = d.pmf.get(c, 0)
    tail_in = tail_maybe = 0
    if d.tail:
        test = _TESTS[op]
        lo_in, hi_in = test(d.tlo, c), test(d.thi, c)
        if lo_in and hi_in:
            tail_in = d.tail
        elif lo_in or hi_in or (op == "==" and d.tlo <= c <= d.thi):
            tail_maybe = d.tail
    err = Fraction(tail_maybe, d.den)
    succ = Fraction(hit + tail_in, d.den)
    return Odds(succ, err), Odds(1 - succ - err, err)


class CheckOdds:
    """The odds of a check: success, failure and (computed on demand) the margin."""

    __slots__ = ("_margin", "failure", "left", "op", "right", "success")

    def __init__(self, op: str, left: Dist, right: Dist, budget: Budget) -> None:
        self.op, self.left, self.right = op, left, right
        self._margin: Dist | None = None
        if len(right.pmf) == 1 and not right.tail:
            # A fixed target: read the odds off the left side directly.
            (target,) = right.pmf
            self.success, self.failure = odds(left, op, target)
        else:
            mop = {">=": ">=", "<=": ">=", ">": ">", "<": ">"}.get(op, "==")
            self.success, self.failure = odds(self._compute_margin(budget), mop, 0)

    def _compute_margin(self, budget: Budget) -> Dist:
        if self.op in ("<=", "<"):
            self._margin = add(self.right, neg(self.left), budget)
        else:
            self._margin = add(self.left, neg(self.right), budget)
        return self._margin

    @property
    def margin(self) -> Dist:
        """Distribution of the margin (positive is better; -|difference| for `==`)."""
        if self._margin is None:
            self._compute_margin(Budget(1 << 62, 1 << 62))
        assert self._margin is not None
        if self.op == "==":
            m = self._margin
            out: dict[int, int] = {}
            for v, w in m.pmf.items():
                out[-abs(v)] = out.get(-abs(v), 0) + w
            lo = -max(abs(m.tlo), abs(m.thi)) if m.tail else 0
            return Dist(out, m.den, m.tail, lo, 0)
        return self._margin


@dataclass(frozen=True, slots=True)
class ProbabilityReport:
    """The exact distribution of an expression and, for a check, its odds."""

    expression: Expression
    dist: Dist
    check: CheckOdds | None
    cost: int

    @classmethod
    def build(
        cls, expr: Expression, left: Dist, op: str | None, right: Dist | None, budget: Budget
    ) -> ProbabilityReport:
        """Assemble the report; for a check, the margin is computed from both sides."""
        check = None
        if op is not None and right is not None:
            check = CheckOdds(op, left, right, budget)
        return cls(expr, left, check, budget.spent)

    def p(self, value: int) -> Fraction:
        """P(total == value), from the enumerated part."""
        return Fraction(self.dist.pmf.get(value, 0), self.dist.den)

    @property
    def success(self) -> Fraction | None:
        """P(check succeeds) (its lower bound when not exact)."""
        return None if self.check is None else self.check.success.low

    def moments(self) -> tuple[float, float]:
        """Mean and standard deviation of the enumerated part (the tail is stated apart)."""
        d = self.dist
        mass = d.enumerated
        mean = Fraction(sum(v * w for v, w in d.pmf.items()), mass)
        second = Fraction(sum(v * v * w for v, w in d.pmf.items()), mass)
        return float(mean), math.sqrt(float(second - mean * mean))

    def percentiles(self) -> dict[str, int]:
        """Smallest value whose cumulative probability reaches each percentile."""
        d = self.dist
        out: dict[str, int] = {}
        cum = 0
        items = sorted(d.pmf.items())
        i = 0
        for pct in PERCENTILES:
            need = Fraction(pct, 100) * d.den
            while i < len(items) and cum + items[i][1] < need:
                cum += items[i][1]
                i += 1
            if i < len(items):
                out[str(pct)] = items[i][0]
        return out

    def to_dict(self) -> dict[str, Any]:
        """Canonical JSON of the report."""
        d = self.dist
        mean, sd = self.moments()
        out: dict[str, Any] = {
            "expression": self.expression.source,
            "formula": formula(self.expression.root),
            "min": _bound(d.lo),
            "max": _bound(d.hi),
            "exact": d.tail == 0,
            "tail": {
                **_frac(Fraction(d.tail, d.den)),
                "min": _bound(d.tlo) if d.tail else None,
                "max": _bound(d.thi) if d.tail else None,
            },
            "mean": mean,
            "stddev": sd,
            "percentiles": self.percentiles(),
            "distribution": _points(d),
        }
        if self.check is not None:
            c = self.check
            out["check"] = {
                "op": c.op,
                "success": c.success.to_dict(),
                "failure": c.failure.to_dict(),
                "margin": _points(c.margin),
            }
        return out


def _points(d: Dist) -> list[dict[str, Any]]:
    return [{"value": v, **_frac(Fraction(w, d.den))} for v, w in sorted(d.pmf.items()) if w]
