"""GraphQL: the Haze input types, each turned into the service's pydantic model."""

from __future__ import annotations

from typing import Any

import strawberry


@strawberry.input(description="A weapon: its difficulty, strength requisite, and if it shoots.")
class HazeWeaponInput:
    difficulty: int = 0
    requisite: int | None = None
    ranged: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The service's Weapon fields."""
        return {"difficulty": self.difficulty, "requisite": self.requisite, "ranged": self.ranged}


@strawberry.input(description="An attack: weapon, wielder's strength, cross wind (ranged only).")
class HazeAttackInput:
    weapon: HazeWeaponInput
    strength: int | None = None
    wind: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The service's Attack fields."""
        return {"weapon": self.weapon.to_dict(), "strength": self.strength, "wind": self.wind}


@strawberry.input(description="One action roll: ability score, skill level and modifiers.")
class HazeActionInput:
    ability: int
    skill: int = 0
    unskilled: bool = False
    related_skill: bool = False
    difficulty: int = 0
    modifier: int = strawberry.field(default=0, description="Added to the target.")
    effect_modifier: int = strawberry.field(default=0, description="Added to the effect dice.")
    attack: HazeAttackInput | None = None

    def to_dict(self) -> dict[str, Any]:
        """The service's ActionSpec fields."""
        return {
            "ability": self.ability,
            "skill": self.skill,
            "unskilled": self.unskilled,
            "related_skill": self.related_skill,
            "difficulty": self.difficulty,
            "modifier": self.modifier,
            "effect_modifier": self.effect_modifier,
            "attack": self.attack.to_dict() if self.attack is not None else None,
        }


@strawberry.input(description="An AE taking part in a complex action, with points left.")
class HazeParticipantInput:
    action: HazeActionInput
    points: int
    health: int | None = strawberry.field(
        default=None, description="Health score: the pool refills to it under recovery each_round."
    )

    def to_dict(self) -> dict[str, Any]:
        """The service's Participant fields."""
        return {"spec": self.action.to_dict(), "points": self.points, "health": self.health}


@strawberry.input(description="A complex action so far (a fresh one: difficulty only).")
class HazeComplexInput:
    difficulty: int
    total: int = 0
    rounds: int = 0
    status: str = "in_progress"

    def to_dict(self) -> dict[str, Any]:
        """The service's ComplexAction fields."""
        return {
            "difficulty": self.difficulty,
            "total": self.total,
            "rounds": self.rounds,
            "status": self.status,
        }


@strawberry.input(description="One aspect's exhaustion points (a rested one: points = health).")
class HazeAspectPoolInput:
    health: int
    points: int
    actions: int = 0
    spent: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The service's AspectPool fields."""
        return {
            "health": self.health,
            "points": self.points,
            "actions": self.actions,
            "spent": self.spent,
        }


@strawberry.input(description="The exhaustion points of body, mind and soul.")
class HazeExhaustionInput:
    body: HazeAspectPoolInput
    mind: HazeAspectPoolInput
    soul: HazeAspectPoolInput

    def to_dict(self) -> dict[str, Any]:
        """The service's Exhaustion fields."""
        return {
            "body": self.body.to_dict(),
            "mind": self.mind.to_dict(),
            "soul": self.soul.to_dict(),
        }
