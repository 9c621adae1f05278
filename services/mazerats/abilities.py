"""The three abilities and their bounds."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

# "Ability scores may never rise higher than +3." The text sets no floor; the lowest a
# creation row gives is -1, and -3 mirrors the ceiling (docs/RULES.md (Maze Rats)).
MAX_ABILITY = 3
MIN_ABILITY = -3

Score = Annotated[int, Field(ge=MIN_ABILITY, le=MAX_ABILITY)]


class Ability(StrEnum):
    """Strength (power, resilience), Dexterity (agility, finesse), Will (intellect, personality)."""

    STR = "STR"
    DEX = "DEX"
    WIL = "WIL"


class MazeRatsAbilities(BaseModel):
    """Strength, dexterity and will."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    strength: Score
    dexterity: Score
    will: Score

    def score(self, ability: Ability) -> int:
        """The score added to a save of `ability`."""
        return {
            Ability.STR: self.strength,
            Ability.DEX: self.dexterity,
            Ability.WIL: self.will,
        }[ability]


class Abilities(MazeRatsAbilities):
    """A character's three ability scores."""

    strength: Score = 0
    dexterity: Score = 0
    will: Score = 0
