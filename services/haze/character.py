"""An AE's sheet: nine abilities and skills with levels, turned into action rolls."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from services.haze.abilities import Abilities, AbilityName
from services.haze.action import ActionSpec, Difficulty, Level, Modifier
from services.haze.errors import NoRelatedSkill, UnknownSkill

SkillName = Annotated[str, Field(min_length=1, max_length=100)]


class Skill(BaseModel):
    """A skill: the ability it is used with and its level (instinctive skills start at 0)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    ability: AbilityName
    level: Level = 0


class Character(BaseModel):
    """An AE: ability scores and the skills it knows."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    abilities: Abilities
    skills: dict[SkillName, Skill] = Field(default_factory=dict, max_length=500)


def skill_action(
    character: Character,
    skill: str,
    *,
    difficulty: int = 0,
    modifier: int = 0,
    effect_modifier: int = 0,
) -> ActionSpec:
    """The action roll of a skill the AE has: its ability score plus its level."""
    known = character.skills.get(skill)
    if known is None:
        raise UnknownSkill(f"the character has no skill {skill!r}")
    return ActionSpec(
        ability=character.abilities.score(known.ability),
        skill=known.level,
        difficulty=difficulty,
        modifier=modifier,
        effect_modifier=effect_modifier,
    )


def unskilled_action(
    character: Character,
    ability: AbilityName,
    related: str,
    *,
    difficulty: Difficulty = 0,
    modifier: Modifier = 0,
) -> ActionSpec:
    """An action without its skill, allowed by a related skill: the ability at −3."""
    if related not in character.skills:
        raise NoRelatedSkill(f"the character has no related skill {related!r}")
    return ActionSpec(
        ability=character.abilities.score(ability),
        unskilled=True,
        related_skill=True,
        difficulty=difficulty,
        modifier=modifier,
    )
