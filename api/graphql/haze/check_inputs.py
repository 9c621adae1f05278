"""GraphQL: the inputs of ability checks and spells, each turned into the service's model."""

from __future__ import annotations

from typing import Any

import strawberry


@strawberry.input(description="An ability check; see hazeAbilityChecks for each one's inputs.")
class HazeAbilityCheckInput:
    name: str = strawberry.field(description="lift, smash, brace, dodge, … (snake_case).")
    ability: int
    skill: int = strawberry.field(default=0, description="The skill of the same name.")
    difficulty: int = strawberry.field(default=0, description="The GM's, added to the check's.")
    modifier: int = 0
    weight_lb: float | None = None
    height_ft: float | None = None
    example: str | None = None
    attacker_success_rate: int | None = None
    poison_strength: int | None = None
    infectiousness: int | None = None
    shock_penalty: int | None = None
    human_like: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        """The service's HazeCheckRequest fields (rules and seed apart)."""
        data: dict[str, Any] = {
            "check": self.name,
            "ability": self.ability,
            "skill": self.skill,
            "difficulty": self.difficulty,
            "modifier": self.modifier,
        }
        optional = {
            "weight_lb": self.weight_lb,
            "height_ft": self.height_ft,
            "example": self.example,
            "attacker_success_rate": self.attacker_success_rate,
            "poison_strength": self.poison_strength,
            "infectiousness": self.infectiousness,
            "shock_penalty": self.shock_penalty,
            "human_like": self.human_like,
        }
        return {**data, **{k: v for k, v in optional.items() if v is not None}}


@strawberry.input(description="A spell or prayer: its name, school (or faith), difficulty.")
class HazeSpellInput:
    name: str
    school: str
    difficulty: int
    kind: str = strawberry.field(default="spell", description="spell or prayer.")

    def to_dict(self) -> dict[str, Any]:
        """The service's Spell fields."""
        return {
            "name": self.name,
            "school": self.school,
            "difficulty": self.difficulty,
            "kind": self.kind,
        }


@strawberry.input(description="Casting a known spell or prayer: ability + the spell's level.")
class HazeCastInput:
    spell: HazeSpellInput
    school_score: int
    ability: int = strawberry.field(description="The magickal ability score used.")
    level: int = strawberry.field(default=0, description="The spell's own skill level.")
    difficulty: int = strawberry.field(default=0, description="The GM's, added to the spell's.")
    modifier: int = 0
    effect_modifier: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The service's HazeCastRequest fields (rules apart)."""
        return {
            "spell": self.spell.to_dict(),
            "school_score": self.school_score,
            "ability": self.ability,
            "level": self.level,
            "difficulty": self.difficulty,
            "modifier": self.modifier,
            "effect_modifier": self.effect_modifier,
        }
