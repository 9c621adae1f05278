"""The four abilities and the dice that can stand for them."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal


class MazeAbility(StrEnum):
    """One of the four main scores."""

    READY = "ready"
    INTERACTION = "interaction"
    SURROUNDINGS = "surroundings"
    NAVIGATION = "navigation"


Ability = MazeAbility  # the name the rules use; GraphQL and OpenAPI see MazeAbility


# The dice a player assigns to abilities; d4 only ever comes from Fear and Exhaustion.
AbilityDie = Literal[6, 8, 10, 12]
AnyDie = Literal[4, 6, 8, 10, 12]
ABILITY_DICE: tuple[int, ...] = (12, 10, 8, 6)
EFFECT_DIE = 4
