"""Inputs of the Maze Rats use cases, with their bounds, shared by REST and GraphQL."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from services.mazerats.abilities import Score
from services.mazerats.character import GearPackage
from services.mazerats.combat import MAX_AC, MAX_COMBAT_BONUS
from services.mazerats.gear import Armor, armor_class
from services.mazerats.magic import MAX_SIGILS, Part, Realm
from services.mazerats.opposed import TieRule
from services.mazerats.saves import Risk

Seed = Annotated[str, Field(min_length=1, max_length=256)]
# A save bonus is an ability score plus 1 for the path.
Bonus = Annotated[int, Field(ge=-3, le=4)]
CombatBonus = Annotated[int, Field(ge=-MAX_COMBAT_BONUS, le=MAX_COMBAT_BONUS)]
ArmorClass = Annotated[int, Field(ge=0, le=MAX_AC)]


def lax(default: Any) -> Any:
    """An enum field: the strict models still take its string value (JSON and GraphQL)."""
    return Field(default=default, strict=False)


class Request(BaseModel):
    """Unknown fields are refused; nothing is coerced (`true` or "1" is not an integer).

    Enum fields are declared with `lax` so their string values are accepted.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class SaveOddsRequest(Request):
    """A save's ability score and whether the path covers the action."""

    ability: Score = 0
    path_covers: bool = False


class SaveRequest(SaveOddsRequest):
    """Roll a save; safe and absurd tasks are decided without dice."""

    risk: Risk = lax(Risk.RISKY)
    seed: Seed | None = None


class OpposedOddsRequest(Request):
    """The two sides' save bonuses (ability + path) and the table's tie rule."""

    attacker_bonus: Bonus = 0
    defender_bonus: Bonus = 0
    ties: TieRule = lax(TieRule.DEFENDER)


class OpposedSaveRequest(OpposedOddsRequest):
    """Roll an opposed save."""

    seed: Seed | None = None


class DefenderGear(Request):
    """What the target wears: the AC it gives replaces a raw `ac`."""

    armor: Armor = lax(Armor.NONE)
    shield: bool = False


class AttackOddsRequest(Request):
    """Combat Bonus against AC (given, or from the target's gear), heavy weapon or not."""

    combat_bonus: CombatBonus = 1
    ac: ArmorClass | None = None
    gear: DefenderGear | None = None
    heavy_weapon: bool = False

    @model_validator(mode="after")
    def _one_ac(self) -> AttackOddsRequest:
        if self.ac is not None and self.gear is not None:
            raise ValueError("give either ac or gear, not both")
        return self

    @property
    def armor_class(self) -> int:
        """The target's AC: the one given, from its gear, or 6 (unarmored)."""
        if self.gear is not None:
            return armor_class(self.gear.armor, self.gear.shield)
        return self.ac if self.ac is not None else armor_class()


class AttackRequest(AttackOddsRequest):
    """Roll an attack; a ranged attack in close combat is refused."""

    ranged: bool = False
    in_close_combat: bool = False
    seed: Seed | None = None


Entry = Annotated[str, Field(min_length=1, max_length=100)]


class CharacterRequest(Request):
    """Generate a character from a seed; "roll or choose": the ability row, path, gear
    package, weapon and up to six items may be chosen instead of rolled."""

    seed: Seed | None = None
    name: Entry | None = None
    gear_package: GearPackage | None = None
    unique_items: bool = False
    ability_row: int | None = Field(default=None, ge=1, le=6)
    path: Entry | None = None
    weapon: Entry | None = None
    items: list[Entry] = Field(default_factory=list, max_length=6)


class SigilRequest(Request):
    """Generate the sigils a shop offers."""

    seed: Seed | None = None
    count: int = Field(default=1, ge=1, le=MAX_SIGILS)
    realm: Realm | None = lax(None)
    part: Part | None = lax(None)
    mix_realms: bool = False
