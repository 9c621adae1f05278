"""What an action is made of: ability, skill, difficulty, weapon; its target and difficulty."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from services.errors import field_error
from services.haze.abilities import Score
from services.haze.errors import NoArbitrarySuccess, NoRelatedSkill, WindOnMelee, WindTooStrong
from services.haze.rules import DEFAULT_RULES, HazeRules

MAX_SKILL = 30
MAX_DIFFICULTY = 100
MAX_MODIFIER = 50

Level = Annotated[int, Field(ge=0, le=MAX_SKILL)]
Difficulty = Annotated[int, Field(ge=0, le=MAX_DIFFICULTY)]
Modifier = Annotated[int, Field(ge=-MAX_MODIFIER, le=MAX_MODIFIER)]


class Weapon(BaseModel):
    """A weapon's difficulty, the strength it requires and whether it shoots."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    difficulty: Difficulty = 0
    requisite: Score | None = None
    ranged: bool = False


class Attack(BaseModel):
    """A melee or ranged attack: the weapon, the wielder's strength and the cross wind."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    weapon: Weapon
    strength: Score | None = None
    wind: Annotated[int, Field(ge=0, le=20)] = 0

    @model_validator(mode="after")
    def _strength_known(self) -> Attack:
        if self.weapon.requisite is not None and self.strength is None:
            need = "a weapon with a strength requisite needs the wielder's strength"
            raise field_error("strength", need)
        return self


class ActionSpec(BaseModel):
    """One action roll: the ability score, the skill level and everything that modifies it.

    `modifier` moves the target (bonuses, shock or initiative penalties); `difficulty`
    is what the success rate must reach; `effect_modifier` adds or removes effect dice.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    ability: Score
    skill: Level = 0
    unskilled: bool = False
    related_skill: bool = False
    difficulty: Difficulty = 0
    modifier: Modifier = 0
    effect_modifier: Modifier = 0
    attack: Attack | None = None

    @model_validator(mode="after")
    def _unskilled_has_no_level(self) -> ActionSpec:
        if self.unskilled and self.skill:
            raise field_error("skill", "an unskilled action has no skill level")
        return self


def unskilled_check(spec: ActionSpec) -> None:
    """Refuse an unskilled action unless the AE has a related skill."""
    if spec.unskilled and not spec.related_skill:
        raise NoRelatedSkill("an unskilled action needs a related skill in a closely matched field")


def target(spec: ActionSpec, rules: HazeRules = DEFAULT_RULES) -> int:
    """The number to roll under: ability + skill (ability − 3 unskilled) + modifier."""
    unskilled_check(spec)
    base = spec.ability - rules.unskilled_penalty if spec.unskilled else spec.ability + spec.skill
    return base + spec.modifier


def attack_difficulty(attack: Attack, rules: HazeRules = DEFAULT_RULES) -> int:
    """Weapon difficulty + each point of strength short of the requisite + wind if ranged."""
    weapon = attack.weapon
    if attack.wind and not weapon.ranged:
        raise WindOnMelee("wind only adds to the difficulty of ranged shots")
    if attack.wind > rules.max_wind:
        raise WindTooStrong(f"a cross wind adds at most {rules.max_wind} to the difficulty")
    short = 0
    if weapon.requisite is not None and attack.strength is not None:
        short = max(0, weapon.requisite - attack.strength)
    return weapon.difficulty + short + attack.wind


def difficulty(spec: ActionSpec, rules: HazeRules = DEFAULT_RULES) -> int:
    """The whole difficulty: the GM's plus the attack's."""
    extra = attack_difficulty(spec.attack, rules) if spec.attack is not None else 0
    return spec.difficulty + extra


def arbitrary_success_rate(skill: int, difficulty: int) -> int | None:
    """skill − difficulty when the skill alone is above the difficulty, else None."""
    return skill - difficulty if skill > difficulty else None


def arbitrary_rate(spec: ActionSpec, rules: HazeRules = DEFAULT_RULES) -> int:
    """The success rate of taking an arbitrary success, refused when not allowed."""
    if spec.unskilled:
        raise NoArbitrarySuccess("an unskilled action has no skill level to succeed by")
    rate = arbitrary_success_rate(spec.skill, difficulty(spec, rules))
    if rate is None:
        raise NoArbitrarySuccess("arbitrary success needs a skill level above the difficulty")
    return rate
