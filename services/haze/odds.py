"""Exact odds of an action: success, fumble and the success-rate distribution."""

from __future__ import annotations

from fractions import Fraction

from pydantic import BaseModel, ConfigDict

from services.haze.action import ActionSpec
from services.haze.outcome import ACTION_DIE, arbitrary, resolve
from services.haze.rules import DEFAULT_RULES, HazeRules

FACE = Fraction(1, ACTION_DIE)


class ActionOdds(BaseModel):
    """P(success), P(fumble), P(failure) and P(success rate = v) for every v, exactly.

    The fumble (a 10) is its own bucket: `success_rate` holds the other nine faces, so
    Σ success_rate + fumble = 1 and success = Σ_{v ≥ 0} success_rate[v] (+ fumble when
    `fumble_succeeds`, i.e. only with `fumble_always_fails` off and a target ≥ 10 + difficulty).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    target: int
    difficulty: int
    arbitrary: bool
    success: Fraction
    fumble: Fraction
    failure: Fraction
    success_rate: dict[int, Fraction]
    fumble_success_rate: int | None = None
    fumble_succeeds: bool = False


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
        if not o.fumble:
            rates[o.success_rate] = rates.get(o.success_rate, Fraction(0)) + FACE
    first, fumbled = outcomes[0], outcomes[-1]
    return ActionOdds(
        target=first.target,
        difficulty=first.difficulty,
        arbitrary=False,
        success=success,
        fumble=FACE,  # one face in ten fumbles whatever the target
        failure=1 - success,
        success_rate=dict(sorted(rates.items())),
        fumble_success_rate=fumbled.success_rate,
        fumble_succeeds=fumbled.success,
    )
