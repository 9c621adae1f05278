"""The action roll: d10 ≤ target; success rate = target − roll − difficulty; 10 fumbles."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from services.dice import Rng, roll
from services.haze.action import ActionSpec, arbitrary_rate, difficulty, target
from services.haze.effect import EffectRoll, roll_effect
from services.haze.rules import DEFAULT_RULES, HazeRules

ACTION_DIE = 10
FUMBLE_FACE = 10


class ActionOutcome(BaseModel):
    """A resolved action.

    `margin` is target − roll (the text's success rate with no difficulty);
    `success_rate` is that less the difficulty, so a success has success_rate ≥ 0.
    `roll` is None for an arbitrary success, which rolls nothing.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    target: int
    difficulty: int
    roll: int | None
    margin: int
    success_rate: int
    success: bool
    fumble: bool
    arbitrary: bool = False
    fumble_effect: EffectRoll | None = None


def resolve(spec: ActionSpec, face: int, rules: HazeRules = DEFAULT_RULES) -> ActionOutcome:
    """The outcome of the action die showing `face` (no fumble effect rolled yet)."""
    goal = target(spec, rules)
    need = difficulty(spec, rules)
    margin = goal - face
    fumble = face == FUMBLE_FACE
    success = margin >= need and not (fumble and rules.fumble_always_fails)
    return ActionOutcome(
        target=goal,
        difficulty=need,
        roll=face,
        margin=margin,
        success_rate=margin - need,
        success=success,
        fumble=fumble,
    )


def arbitrary(spec: ActionSpec, rules: HazeRules = DEFAULT_RULES) -> ActionOutcome:
    """Succeed without rolling: success rate = skill − difficulty."""
    rate = arbitrary_rate(spec, rules)
    need = difficulty(spec, rules)
    return ActionOutcome(
        target=target(spec, rules),
        difficulty=need,
        roll=None,
        margin=rate + need,
        success_rate=rate,
        success=True,
        fumble=False,
        arbitrary=True,
    )


def roll_action(
    spec: ActionSpec, rng: Rng, rules: HazeRules = DEFAULT_RULES, *, take_arbitrary: bool = False
) -> ActionOutcome:
    """Roll the action die (or take an arbitrary success); a fumble rolls one effect die."""
    if take_arbitrary:
        return arbitrary(spec, rules)
    target(spec, rules)  # refuse an impossible action before any die is thrown
    face = roll(f"1d{ACTION_DIE}", rng).dice[0].face
    outcome = resolve(spec, face, rules)
    if outcome.fumble:
        effect = roll_effect(1, rng, rules.fumble_die_explodes)
        outcome = outcome.model_copy(update={"fumble_effect": effect})
    return outcome
