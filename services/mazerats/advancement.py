"""Gaining a level: what the XP gives, and applying the new level's feature as chosen."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from services.mazerats.abilities import MAX_ABILITY, Ability, MazeRatsAbilities
from services.mazerats.combat import MAX_COMBAT_BONUS
from services.mazerats.errors import MazeRatsError
from services.mazerats.levels import (
    MAX_LEVEL,
    XP_TABLE,
    Feature,
    features_up_to,
    level_for_xp,
    max_hp,
    path_count,
    sigil_slots,
)

FIELD = {Ability.STR: "strength", Ability.DEX: "dexterity", Ability.WIL: "will"}


class Choice(StrEnum):
    """What a level feature raises: an ability score or the Combat Bonus."""

    ABILITY = "ability"
    COMBAT_BONUS = "combat_bonus"


class MazeRatsStanding(BaseModel):
    """The level for the XP, its features so far, max HP, sigil slots and paths."""

    model_config = ConfigDict(frozen=True)

    xp: int
    level: int
    features: tuple[Feature, ...]
    max_hp: int
    sigil_slots: int
    paths: int
    next_level_xp: int | None


class MazeRatsAdvancement(BaseModel):
    """The new level, its feature and the sheet's figures after applying it."""

    model_config = ConfigDict(frozen=True)

    level: int
    feature: Feature
    abilities: MazeRatsAbilities
    combat_bonus: int
    max_hp: int
    sigil_slots: int
    paths: int


def standing(xp: int) -> MazeRatsStanding:
    """The XP table read for `xp` ("When you have enough XP, gain a level and 2 max HP")."""
    level = level_for_xp(xp)
    return MazeRatsStanding(
        xp=xp,
        level=level,
        features=tuple(features_up_to(level)),
        max_hp=max_hp(level),
        sigil_slots=sigil_slots(level),
        paths=path_count(level),
        next_level_xp=XP_TABLE[level].xp if level < MAX_LEVEL else None,
    )


def _raise_ability(abilities: MazeRatsAbilities, ability: Ability | None) -> MazeRatsAbilities:
    if ability is None:
        raise MazeRatsError("this level raises an ability: name it", code="ability_required")
    if abilities.score(ability) >= MAX_ABILITY:
        raise MazeRatsError(
            f"ability scores may never rise higher than +{MAX_ABILITY}", code="ability_at_max"
        )
    return abilities.model_copy(update={FIELD[ability]: abilities.score(ability) + 1})


def level_up(
    level: int,
    abilities: MazeRatsAbilities,
    combat_bonus: int,
    *,
    choice: Choice | None = None,
    ability: Ability | None = None,
) -> MazeRatsAdvancement:
    """Gain level `level + 1`: 2 max HP and its feature, applied as the player chooses.

    "Ability Score +1" needs an ability; "Ability Score +1 OR Combat Bonus +1" needs a
    choice (and the ability when it is the ability); a sigil slot needs nothing.
    """
    if not 1 <= level < MAX_LEVEL:
        raise MazeRatsError(f"a level-up goes from 1..{MAX_LEVEL - 1}", code="level_out_of_range")
    new = level + 1
    feature = XP_TABLE[new - 1].feature
    assert feature is not None
    bonus = combat_bonus
    if feature is Feature.ABILITY_OR_COMBAT and choice is None:
        raise MazeRatsError("choose ability or combat_bonus", code="choice_required")
    if feature is Feature.ABILITY_OR_COMBAT and choice is Choice.COMBAT_BONUS:
        if ability is not None:
            raise MazeRatsError("Combat Bonus +1 raises no ability", code="invalid_choice")
        if bonus >= MAX_COMBAT_BONUS:
            raise MazeRatsError("combat bonus is at its maximum", code="combat_bonus_out_of_range")
        bonus += 1
    elif feature is Feature.SIGIL_SLOT:
        if choice is not None or ability is not None:
            raise MazeRatsError("a sigil slot level has no choice", code="invalid_choice")
    else:
        if choice is Choice.COMBAT_BONUS:
            raise MazeRatsError(f"level {new} raises an ability score", code="invalid_choice")
        abilities = _raise_ability(abilities, ability)
    return MazeRatsAdvancement(
        level=new,
        feature=feature,
        abilities=abilities,
        combat_bonus=bonus,
        max_hp=max_hp(new),
        sigil_slots=sigil_slots(new),
        paths=path_count(new),
    )
