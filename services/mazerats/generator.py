"""The character generator: every creation table rolled from one seeded stream."""

from __future__ import annotations

from services.dice import Rng
from services.mazerats.abilities import Abilities
from services.mazerats.character import (
    ITEM_COUNT,
    PACKAGES,
    Character,
    GearPackage,
    Pick,
    check_creation,
)
from services.mazerats.gear import Weapon
from services.mazerats.levels import START_COMBAT_BONUS, max_hp, sigil_slots
from services.mazerats.tables import character as t
from services.mazerats.tables.d66 import d66_index


def _d6(rng: Rng) -> int:
    return rng.below(6) + 1


def _d66(rng: Rng, table: tuple[str, ...]) -> Pick:
    first, second = _d6(rng), _d6(rng)
    return Pick(dice=(first, second), entry=table[d66_index(first, second)])


def generate_character(
    rng: Rng,
    *,
    seed: str | None = None,
    name: str | None = None,
    gear_package: GearPackage | None = None,
    unique_items: bool = False,
) -> Character:
    """Roll a level-1 character: abilities, path, gear, six items, appearance and detail."""
    # Rolled in the text's order, so one seed always gives the same sheet.
    row = _d6(rng)
    strength, dexterity, will = t.ABILITY_ROWS[row - 1]
    path_face = _d6(rng)
    package: GearPackage = gear_package or ("A", "B")[rng.below(2)]
    gear = PACKAGES[package]
    weapon_face = _d6(rng)
    weapons = t.LIGHT_WEAPONS if gear.weapon is Weapon.LIGHT else t.HEAVY_WEAPONS
    items: list[Pick] = []
    while len(items) < ITEM_COUNT:
        item = _d66(rng, t.ITEMS)
        if not (unique_items and any(i.entry == item.entry for i in items)):
            items.append(item)
    appearance = _d66(rng, t.APPEARANCES)
    detail = _d66(rng, t.DETAILS)
    return check_creation(
        Character(
            seed=seed,
            name=name,
            ability_row=row,
            abilities=Abilities(strength=strength, dexterity=dexterity, will=will),
            max_hp=max_hp(1),
            hp=max_hp(1),
            combat_bonus=START_COMBAT_BONUS,
            paths=(Pick(dice=(path_face,), entry=t.PATH_NAMES[path_face - 1]),),
            gear_package=package,
            gear=gear,
            weapon=Pick(dice=(weapon_face,), entry=weapons[weapon_face - 1]),
            armor_class=gear.ac,
            items=tuple(items),
            appearance=appearance,
            detail=detail,
            sigil_slots=sigil_slots(1),
        )
    )
