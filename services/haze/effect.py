"""Effect dice: ⌊(ability + skill) / 2⌋ + modifiers d10, tens re-rolled and added."""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel, ConfigDict

from services.dice import ProbabilityReport, Rng, probability, roll
from services.haze.action import ActionSpec
from services.haze.errors import TooManyEffectDice
from services.haze.rules import DEFAULT_RULES, HazeRules

# Far above any character sheet; it keeps a roll and its exact distribution cheap.
MAX_EFFECT_DICE = 60


class EffectRoll(BaseModel):
    """A rolled effect: how many dice, every face thrown (re-rolled tens too), the total."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dice: int
    expression: str
    faces: list[int]
    total: int


def effect_dice(ability: int, skill: int, modifiers: int = 0) -> int:
    """The number of effect dice: (ability + skill) halved, rounded down, plus modifiers."""
    return max(0, (ability + skill) // 2 + modifiers)


def effect_dice_for(spec: ActionSpec, rules: HazeRules = DEFAULT_RULES) -> int:
    """Effect dice of an action; unskilled, the skill counts as 0 (and −3 if so set)."""
    if spec.unskilled:
        penalty = rules.unskilled_penalty if rules.unskilled_penalty_on_effect else 0
        return effect_dice(spec.ability - penalty, 0, spec.effect_modifier)
    return effect_dice(spec.ability, spec.skill, spec.effect_modifier)


def effect_expression(dice: int, explode: bool = True) -> str:
    """Dice notation of an effect roll: `Nd10!` (open-ended) or `Nd10`."""
    if dice < 0 or dice > MAX_EFFECT_DICE:
        raise TooManyEffectDice(f"effect rolls take 0 to {MAX_EFFECT_DICE} dice, not {dice}")
    return f"{dice}d10{'!' if explode else ''}"


def roll_effect(dice: int, rng: Rng, explode: bool = True) -> EffectRoll:
    """Roll `dice` effect dice; each 10 is re-rolled and added."""
    expression = effect_expression(dice, explode)
    result = roll(expression, rng)
    faces = [d.face for d in result.dice]
    return EffectRoll(dice=dice, expression=expression, faces=faces, total=result.total)


@lru_cache(maxsize=MAX_EFFECT_DICE + 1)
def effect_distribution(dice: int) -> ProbabilityReport:
    """The exact distribution of an effect roll, its open-ended tail reported apart."""
    return probability(effect_expression(dice))
