"""The nine ability scores: three aspects (body, mind, soul) × power, speed, toughness."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from services.markers import Named

Aspect = Annotated[Literal["body", "mind", "soul"], Named("HazeAspect")]
Quality = Literal["power", "speed", "toughness"]
_Ability = Literal[
    "strength",
    "agility",
    "constitution",
    "willpower",
    "wits",
    "intelligence",
    "wisdom",
    "charisma",
    "empathy",
]
AbilityName = Annotated[_Ability, Named("HazeAbility")]

MIN_SCORE = 1
MAX_SCORE = 10
Score = Annotated[int, Field(ge=MIN_SCORE, le=MAX_SCORE)]

ASPECTS: tuple[Aspect, ...] = ("body", "mind", "soul")
QUALITIES: tuple[Quality, ...] = ("power", "speed", "toughness")

# The text's table, row by row (it spells "agillity"; the API uses "agility").
GRID: dict[Aspect, dict[Quality, AbilityName]] = {
    "body": {"power": "strength", "speed": "agility", "toughness": "constitution"},
    "mind": {"power": "willpower", "speed": "wits", "toughness": "intelligence"},
    "soul": {"power": "wisdom", "speed": "charisma", "toughness": "empathy"},
}

_PLACE: dict[AbilityName, tuple[Aspect, Quality]] = {
    name: (aspect, quality) for aspect, row in GRID.items() for quality, name in row.items()
}


def aspect_of(ability: AbilityName) -> Aspect:
    """The aspect (body, mind or soul) an ability score belongs to."""
    return _PLACE[ability][0]


def quality_of(ability: AbilityName) -> Quality:
    """Whether an ability score is its aspect's power, speed or toughness."""
    return _PLACE[ability][1]


def health_ability(aspect: Aspect) -> AbilityName:
    """The aspect's health score: its toughness (constitution, intelligence, empathy)."""
    return GRID[aspect]["toughness"]


class Abilities(BaseModel):
    """An AE's nine ability scores, each from 1 to 10."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    strength: Score
    agility: Score
    constitution: Score
    willpower: Score
    wits: Score
    intelligence: Score
    wisdom: Score
    charisma: Score
    empathy: Score

    def score(self, ability: AbilityName) -> int:
        """The score of one ability by name."""
        value: int = getattr(self, ability)
        return value

    def health(self, aspect: Aspect) -> int:
        """The health score of an aspect."""
        return self.score(health_ability(aspect))
