"""The character generator: every creation table rolled from one seeded stream."""

from __future__ import annotations

from collections.abc import Sequence

from services.dice import Rng
from services.mazerats.abilities import MazeRatsAbilities
from services.mazerats.character import (
    ITEM_COUNT,
    PACKAGES,
    GearPackage,
    MazeRatsCharacter,
    Pick,
    check_creation,
)
from services.mazerats.errors import MazeRatsError
from services.mazerats.gear import Weapon
from services.mazerats.levels import START_COMBAT_BONUS, max_hp, sigil_slots
from services.mazerats.tables import character as t
from services.mazerats.tables.d66 import d66_index


def _d6(rng: Rng) -> int:
    return rng.below(6) + 1


def _d66(rng: Rng, table: tuple[str, ...]) -> Pick:
    first, second = _d6(rng), _d6(rng)
    return Pick(dice=(first, second), entry=table[d66_index(first, second)])


def _chosen(kind: str, table: tuple[str, ...], wanted: str) -> Pick:
    """A table entry the player chose (any letter case), or `unknown_<kind>`."""
    found = next((entry for entry in table if entry.casefold() == wanted.casefold()), None)
    if found is None:
        raise MazeRatsError(
            f"{wanted!r} is not on the {kind} table ({', '.join(table)})",
            code=f"unknown_{kind}",
        )
    return Pick(dice=(), entry=found)


def generate_character(
    rng: Rng,
    *,
    seed: str | None = None,
    name: str | None = None,
    gear_package: GearPackage | None = None,
    unique_items: bool = False,
    ability_row: int | None = None,
    path: str | None = None,
    weapon: str | None = None,
    items: Sequence[str] = (),
) -> MazeRatsCharacter:
    """Roll a level-1 character: abilities, path, gear, six items, appearance and detail.

    "Roll or choose": a chosen ability row, path, weapon or item is taken instead of its
    roll (and draws nothing from the stream); chosen items come first, the rest are
    rolled. Chosen entries carry no dice.
    """
    # Rolled in the text's order, so one seed (and the same choices) gives the same sheet.
    row = ability_row or _d6(rng)
    strength, dexterity, will = t.ABILITY_ROWS[row - 1]
    if path is not None:
        path_pick = _chosen("path", t.PATH_NAMES, path)
    else:
        face = _d6(rng)
        path_pick = Pick(dice=(face,), entry=t.PATH_NAMES[face - 1])
    package: GearPackage = gear_package or ("A", "B")[rng.below(2)]
    gear = PACKAGES[package]
    weapons = t.LIGHT_WEAPONS if gear.weapon is Weapon.LIGHT else t.HEAVY_WEAPONS
    if weapon is not None:
        weapon_pick = _chosen("weapon", weapons, weapon)
    else:
        face = _d6(rng)
        weapon_pick = Pick(dice=(face,), entry=weapons[face - 1])
    picks = [_chosen("item", t.ITEMS, item) for item in items]
    if len(picks) > ITEM_COUNT:
        raise MazeRatsError(f"at most {ITEM_COUNT} items", code="too_many_items")
    entries = [p.entry for p in picks]
    if unique_items and len(set(entries)) != len(entries):
        raise MazeRatsError("unique_items: an item is chosen twice", code="duplicate_item")
    while len(picks) < ITEM_COUNT:
        item = _d66(rng, t.ITEMS)
        if not (unique_items and any(i.entry == item.entry for i in picks)):
            picks.append(item)
    appearance = _d66(rng, t.APPEARANCES)
    detail = _d66(rng, t.DETAILS)
    return check_creation(
        MazeRatsCharacter(
            seed=seed,
            name=name,
            level=1,
            xp=0,
            ability_row=row,
            abilities=MazeRatsAbilities(strength=strength, dexterity=dexterity, will=will),
            max_hp=max_hp(1),
            hp=max_hp(1),
            combat_bonus=START_COMBAT_BONUS,
            paths=(path_pick,),
            gear_package=package,
            gear=gear,
            weapon=weapon_pick,
            armor_class=gear.ac,
            items=tuple(picks),
            appearance=appearance,
            detail=detail,
            sigil_slots=sigil_slots(1),
            sigils=(),
        )
    )
