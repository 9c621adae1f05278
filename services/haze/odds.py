"""Exact odds of an action: success, fumble and the success-rate distribution."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict

from services.haze.action import ActionSpec
from services.haze.outcome import ACTION_DIE, arbitrary, resolve
from services.haze.rules import DEFAULT_RULES, HazeRules

FACE = Fraction(1, ACTION_DIE)


def _frac(f: Fraction) -> dict[str, Any]:
    return {"fraction": f"{f.numerator}/{f.denominator}", "float": float(f)}


class ActionOdds(BaseModel):
    """P(success), P(fumble), P(failure) and P(success rate = v) for every v, exactly."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    target: int
    difficulty: int
    arbitrary: bool
    success: Fraction
    fumble: Fraction
    failure: Fraction
    success_rate: dict[int, Fraction]

    def to_dict(self) -> dict[str, Any]:
        """JSON: each probability as an exact fraction string and a float."""
        return {
            "target": self.target,
            "difficulty": self.difficulty,
            "arbitrary": self.arbitrary,
            "success": _frac(self.success),
            "fumble": _frac(self.fumble),
            "failure": _frac(self.failure),
            "success_rate": [
                {"value": v, **_frac(p)} for v, p in sorted(self.success_rate.items())
            ],
        }


def action_odds(
    spec: ActionSpec, rules: HazeRules = DEFAULT_RULES, *, take_arbitrary: bool = False
) -> ActionOdds:
    """Enumerate the ten faces of the action die (or the one arbitrary outcome)."""
    if take_arbitrary:
        sure = arbitrary(spec, rules)
        return ActionOdds(
            target=sure.target,
            difficulty=sure.difficulty,
            arbitrary=True,
            success=Fraction(1),
            fumble=Fraction(0),
            failure=Fraction(0),
            success_rate={sure.success_rate: Fraction(1)},
        )
    outcomes = [resolve(spec, face, rules) for face in range(1, ACTION_DIE + 1)]
    success = sum((FACE for o in outcomes if o.success), Fraction(0))
    rates: dict[int, Fraction] = {}
    for o in outcomes:
        rates[o.success_rate] = rates.get(o.success_rate, Fraction(0)) + FACE
    first = outcomes[0]
    return ActionOdds(
        target=first.target,
        difficulty=first.difficulty,
        arbitrary=False,
        success=success,
        fumble=FACE,  # one face in ten fumbles whatever the target
        failure=1 - success,
        success_rate=rates,
    )
