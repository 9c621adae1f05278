"""Spell costs: a base cost plus +1 HP per modifier, tiers, corruption and casting."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from services.dice import Rng
from services.markers import Named
from services.mazerats.errors import MazeRatsError, RuleViolation
from services.mazerats.saves import MazeRatsSaveRoll, roll_save

MINOR = range(1, 5)
MAJOR = range(5, 9)
MASTER = range(9, 13)
MIN_COST = 1
MAX_STEPS = 20


class Reach(StrEnum):
    """Range or area, in the text's steps: Close > Nearby > Far > Distant."""

    CLOSE = "close"
    NEARBY = "nearby"
    FAR = "far"
    DISTANT = "distant"


REACHES = tuple(Reach)
Steps = Field(default=0, ge=0, le=MAX_STEPS)
Tier = Annotated[Literal["minor", "major", "master"], Named("MazeRatsSpellTier")]


class SpellRequest(BaseModel):
    """What the caster wants: the GM's base cost and each +1 HP modifier."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    base: int = Field(default=1, ge=1, le=12)
    reach: Reach = Field(default=Reach.CLOSE, strict=False)
    reach_steps: int = Steps
    extra_targets: int = Steps
    duration_steps: int = Steps
    damage_steps: int = Steps
    base_damage: int | None = Field(default=None, ge=0, le=100)
    damage_step: int = Field(default=3, ge=1, le=100)
    extra_effects: int = Steps
    no_save: bool = False
    corruption_discount: int = Field(default=0, ge=0, le=12)
    heals_hp: bool = False


class MazeRatsSpellBreakdown(BaseModel):
    """A spell's cost, term by term (the discount is negative); the terms add up to it."""

    model_config = ConfigDict(frozen=True)

    base: int
    range: int
    targets: int
    duration: int
    damage: int
    effects: int
    no_save: int
    corruption: int
    minimum: int = Field(
        description="what brings a discounted cost up to the least a spell costs (1 HP); "
        "0 unless the discount went below it",
    )


class MazeRatsSpellCost(BaseModel):
    """A spell's HP cost, tier, breakdown, reach, damage and whether it risks corruption."""

    model_config = ConfigDict(frozen=True)

    cost: int
    tier: Tier
    within_guidelines: bool
    breakdown: MazeRatsSpellBreakdown
    reach: Reach
    damage: int | None
    corruption_save: bool


def tier(cost: int) -> Tier:
    """Minor 1-4, major 5-8, master 9 and up (the text's guideline stops at 12)."""
    if cost in MINOR:
        return "minor"
    return "major" if cost in MAJOR else "master"


def spell_cost(spell: SpellRequest) -> MazeRatsSpellCost:
    """Price a spell: base, +1 HP for each step or addition, less any corruption discount."""
    if spell.heals_hp:
        raise RuleViolation("magic can never heal HP", code="magic_cannot_heal")
    reach_index = REACHES.index(spell.reach) + spell.reach_steps
    if reach_index >= len(REACHES):
        raise RuleViolation("range cannot go past Distant", code="range_past_distant")
    breakdown = MazeRatsSpellBreakdown(
        base=spell.base,
        range=spell.reach_steps,
        targets=spell.extra_targets,
        duration=spell.duration_steps,
        damage=spell.damage_steps,
        effects=spell.extra_effects,
        no_save=1 if spell.no_save else 0,
        corruption=-spell.corruption_discount,
        minimum=0,
    )
    terms = sum(dict(breakdown).values())
    cost = max(MIN_COST, terms)
    if cost != terms:
        breakdown = breakdown.model_copy(update={"minimum": cost - terms})
    damage = None
    if spell.base_damage is not None:
        damage = spell.base_damage + spell.damage_step * spell.damage_steps
    return MazeRatsSpellCost(
        cost=cost,
        tier=tier(cost),
        within_guidelines=cost <= MASTER.stop - 1,
        breakdown=breakdown,
        reach=REACHES[reach_index],
        damage=damage,
        corruption_save=spell.corruption_discount > 0,
    )


class Casting(BaseModel):
    """A cast spell: HP left, death, and the corruption save if one was risked."""

    model_config = ConfigDict(frozen=True)

    cost: int
    hp: int
    dead: bool
    corruption_save: MazeRatsSaveRoll | None
    corrupted: bool


def cast(
    rng: Rng, hp: int, price: MazeRatsSpellCost, will: int = 0, path_covers: bool = False
) -> Casting:
    """Lose HP equal to the cost (zero HP is death); roll the corruption save if risked."""
    if hp < 1:
        raise MazeRatsError("a character at zero HP is dead", code="character_dead")
    left = max(0, hp - price.cost)
    save = roll_save(rng, will, path_covers) if price.corruption_save else None
    return Casting(
        cost=price.cost,
        hp=left,
        dead=left == 0,
        corruption_save=save,
        corrupted=save is not None and not save.success,
    )
