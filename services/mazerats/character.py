"""A Maze Rats character and the check that it obeys the creation rules."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from services.mazerats.abilities import Abilities, MazeRatsAbilities
from services.mazerats.errors import MazeRatsError
from services.mazerats.gear import Armor, Gear, MazeRatsGear, Weapon
from services.mazerats.levels import (
    START_COMBAT_BONUS,
    level_for_xp,
    max_hp,
    path_count,
    sigil_slots,
)
from services.mazerats.tables import character as t
from services.mazerats.tables.d66 import d66_index

GearPackage = Literal["A", "B"]
ITEM_COUNT = 6

# "A) Light armor, a shield, and a light weapon.  B) Light armor and a heavy weapon."
PACKAGES: dict[str, MazeRatsGear] = {
    "A": MazeRatsGear(armor=Armor.LIGHT, shield=True, weapon=Weapon.LIGHT),
    "B": MazeRatsGear(armor=Armor.LIGHT, shield=False, weapon=Weapon.HEAVY),
}


class Pick(BaseModel):
    """An entry taken from a table, with the dice that picked it (empty when chosen)."""

    model_config = ConfigDict(frozen=True)

    dice: tuple[int, ...]
    entry: str


class MazeRatsCharacter(BaseModel):
    """A character sheet; the same seed gives the same sheet."""

    model_config = ConfigDict(frozen=True)

    seed: str | None
    name: str | None
    level: int
    xp: int
    ability_row: int
    abilities: MazeRatsAbilities
    max_hp: int
    hp: int
    combat_bonus: int
    paths: tuple[Pick, ...]
    gear_package: GearPackage
    gear: MazeRatsGear
    weapon: Pick
    armor_class: int
    items: tuple[Pick, ...]
    appearance: Pick
    detail: Pick
    sigil_slots: int
    sigils: tuple[str, ...]


class Character(MazeRatsCharacter):
    """Everything on a Maze Rats character sheet at creation (and as it grows)."""

    seed: str | None = None
    name: str | None = None
    level: int = 1
    xp: int = 0
    abilities: Abilities
    gear: Gear
    sigils: tuple[str, ...] = ()


def _d66(table: tuple[str, ...], pick: Pick) -> bool:
    if not pick.dice:
        return pick.entry in table
    first, second = pick.dice
    return table[d66_index(first, second)] == pick.entry


def creation_problems(c: MazeRatsCharacter) -> list[str]:
    """Every way a starting character breaks the creation rules (empty when valid)."""
    out: list[str] = []
    row = t.ABILITY_ROWS[c.ability_row - 1] if 1 <= c.ability_row <= 6 else None
    a = c.abilities
    if row is None or (a.strength, a.dexterity, a.will) != row:
        out.append("abilities are not the row of the ability table")
    if level_for_xp(c.xp) != c.level or c.max_hp != max_hp(c.level) or c.hp > c.max_hp:
        out.append("level, XP and max HP disagree")
    if c.level == 1 and c.combat_bonus != START_COMBAT_BONUS:
        out.append("a level-1 character has Combat Bonus +1")
    if len(c.paths) != path_count(c.level) or any(p.entry not in t.PATH_NAMES for p in c.paths):
        out.append("wrong number of paths or an unknown path")
    if c.gear != PACKAGES[c.gear_package]:
        out.append("gear is not the chosen package")
    weapons = t.LIGHT_WEAPONS if c.gear.weapon is Weapon.LIGHT else t.HEAVY_WEAPONS
    if c.weapon.entry not in weapons:
        out.append("the weapon is not of the package's kind")
    if c.armor_class != c.gear.ac:
        out.append("armor class does not match the gear")
    if len(c.items) != ITEM_COUNT or not all(_d66(t.ITEMS, i) for i in c.items):
        out.append("not six items from the item table")
    if not _d66(t.APPEARANCES, c.appearance) or not _d66(t.DETAILS, c.detail):
        out.append("appearance or detail is not from its table")
    if c.sigil_slots != sigil_slots(c.level) or len(c.sigils) > c.sigil_slots:
        out.append("sigils exceed the sigil slots")
    return out


def check_creation(c: MazeRatsCharacter) -> MazeRatsCharacter:
    """Return the character if it obeys the creation rules, else refuse it."""
    problems = creation_problems(c)
    if problems:
        raise MazeRatsError("; ".join(problems), code="invalid_character")
    return c
