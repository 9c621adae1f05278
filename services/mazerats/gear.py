"""Armor class from gear: 6 unarmored, light armor and shields +1 each, heavy armor +2."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, model_validator

from services.mazerats.errors import RuleViolation

UNARMORED_AC = 6
HANDS = 2


class Armor(StrEnum):
    """Body armor worn: none, light (+1 AC) or heavy (+2 AC)."""

    NONE = "none"
    LIGHT = "light"
    HEAVY = "heavy"


class Weapon(StrEnum):
    """A weapon in hand: light (1 hand) or heavy (2 hands, +1 damage); none is a bare hand."""

    NONE = "none"
    LIGHT = "light"
    HEAVY = "heavy"


ARMOR_AC = {Armor.NONE: 0, Armor.LIGHT: 1, Armor.HEAVY: 2}
WEAPON_HANDS = {Weapon.NONE: 0, Weapon.LIGHT: 1, Weapon.HEAVY: 2}
SHIELD_HANDS = 1


class MazeRatsGear(BaseModel):
    """Armor, shield and weapon kind."""

    model_config = ConfigDict(frozen=True)

    armor: Armor
    shield: bool
    weapon: Weapon

    @model_validator(mode="after")
    def _hands(self) -> MazeRatsGear:
        used = WEAPON_HANDS[self.weapon] + (SHIELD_HANDS if self.shield else 0)
        if used > HANDS:
            raise RuleViolation(
                f"{self.weapon.value} weapon and shield need {used} hands; a character has 2",
                code="too_many_hands",
            )
        return self

    @property
    def ac(self) -> int:
        """The armor class this gear gives."""
        return armor_class(self.armor, self.shield)


class Gear(MazeRatsGear):
    """What a combatant wears and holds; a shield and a heavy weapon need three hands."""

    armor: Armor = Armor.NONE
    shield: bool = False
    weapon: Weapon = Weapon.NONE


def armor_class(armor: Armor = Armor.NONE, shield: bool = False) -> int:
    """6, +1 for light armor, +2 for heavy armor, +1 for a shield."""
    return UNARMORED_AC + ARMOR_AC[armor] + (1 if shield else 0)
