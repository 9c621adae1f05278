"""Saving throws: 2d6 + ability (+1 when the path covers it), 9 or more succeeds."""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction

from pydantic import BaseModel, ConfigDict

from services.dice import Rng, roll
from services.mazerats.abilities import MAX_ABILITY, MIN_ABILITY
from services.mazerats.errors import MazeRatsError
from services.mazerats.twodsix import at_least

SAVE_TARGET = 9


class Risk(StrEnum):
    """Whether a save is rolled: only risky tasks are; the others are decided."""

    RISKY = "risky"
    SAFE = "safe"
    ABSURD = "absurd"


class MazeRatsSaveRoll(BaseModel):
    """A save: 2d6 + bonus, 9 or more succeeds (`automatic`: decided without dice)."""

    model_config = ConfigDict(frozen=True)

    dice: tuple[int, ...]
    bonus: int
    total: int | None
    target: int
    success: bool
    automatic: bool


def save_bonus(ability: int, path_covers: bool) -> int:
    """The ability score plus 1 when the character's path covers the action."""
    if not MIN_ABILITY <= ability <= MAX_ABILITY:
        raise MazeRatsError(
            f"ability score must be within {MIN_ABILITY:+d}..{MAX_ABILITY:+d}, not {ability:+d}",
            code="ability_out_of_range",
        )
    return ability + (1 if path_covers else 0)


def save_expression(bonus: int) -> str:
    """The dice notation of a save with this bonus."""
    return f"2d6{bonus:+d} >= {SAVE_TARGET}"


def roll_save(
    rng: Rng, ability: int = 0, path_covers: bool = False, risk: Risk = Risk.RISKY
) -> MazeRatsSaveRoll:
    """Roll a save, or decide it without dice when the task is safe or absurd."""
    bonus = save_bonus(ability, path_covers)
    if risk is not Risk.RISKY:
        return MazeRatsSaveRoll(
            dice=(),
            bonus=bonus,
            total=None,
            target=SAVE_TARGET,
            success=risk is Risk.SAFE,
            automatic=True,
        )
    result = roll(save_expression(bonus), rng)
    assert result.check is not None
    return MazeRatsSaveRoll(
        dice=tuple(d.face for d in result.dice),
        bonus=bonus,
        total=result.total,
        target=SAVE_TARGET,
        success=result.check.success,
        automatic=False,
    )


def save_odds(ability: int = 0, path_covers: bool = False) -> Fraction:
    """The exact probability that a save succeeds."""
    return at_least(SAVE_TARGET - save_bonus(ability, path_covers))
