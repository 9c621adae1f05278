"""Pinned generator output, strict request models, table reading, level-ups, AC from gear."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from services.dice import seeded_rng
from services.mazerats import MazeRatsError
from services.mazerats.abilities import Abilities, Ability
from services.mazerats.advancement import Choice, level_up, standing
from services.mazerats.generator import generate_character
from services.mazerats.levels import Feature
from services.mazerats.magic import generate_sigil
from services.mazerats.play_requests import HealRequest, LevelUpRequest, TurnRequest
from services.mazerats.requests import (
    AttackOddsRequest,
    AttackRequest,
    CharacterRequest,
    OpposedSaveRequest,
    SaveRequest,
    SigilRequest,
)
from services.mazerats.spells import SpellRequest
from services.mazerats.tables import character as t
from services.mazerats.tables import magic as m
from services.mazerats.tables.d66 import d66_index

PINNED_SHEET: dict[str, Any] = {
    "seed": "pinned",
    "name": None,
    "level": 1,
    "xp": 0,
    "ability_row": 5,
    "abilities": {"strength": 0, "dexterity": -1, "will": 1},
    "max_hp": 6,
    "hp": 6,
    "combat_bonus": 1,
    "paths": [{"dice": [5], "entry": "Sawbones"}],
    "gear_package": "A",
    "gear": {"armor": "light", "shield": True, "weapon": "light"},
    "weapon": {"dice": [3], "entry": "Mace"},
    "armor_class": 8,
    "items": [
        {"dice": [3, 2], "entry": "Incense"},
        {"dice": [4, 4], "entry": "Manacles"},
        {"dice": [4, 3], "entry": "Lump of Wax"},
        {"dice": [5, 2], "entry": "Shovel"},
        {"dice": [4, 2], "entry": "Lump of Resin"},
        {"dice": [3, 4], "entry": "Lantern"},
    ],
    "appearance": {"dice": [5, 1], "entry": "Furrowed"},
    "detail": {"dice": [6, 5], "entry": "Topknot"},
    "sigil_slots": 1,
    "sigils": [],
}

PINNED_SIGIL: dict[str, Any] = {
    "name": "Greasing Bastion",
    "realm": "corporeal",
    "part": "effect",
    "rolls": [
        {"table": "corporeal effects", "dice": [3, 3], "entry": "Greasing"},
        {"table": "corporeal forms", "dice": [3, 2], "entry": "Bastion"},
    ],
}


def test_the_sheet_for_seed_pinned_is_this_exact_sheet() -> None:
    """'Roll or choose six items' ... a generated character is reproducible from its seed:
    a change in draw order or table reading changes this known answer."""
    sheet = generate_character(seeded_rng("pinned"), seed="pinned")
    assert sheet.model_dump(mode="json") == PINNED_SHEET


def test_the_sigil_for_seed_pinned_is_this_exact_sigil() -> None:
    """'The best way to do this is to combine an effect or element with a form'"""
    assert generate_sigil(seeded_rng("pinned")).model_dump(mode="json") == PINNED_SIGIL


def test_every_twelve_by_three_table_is_read_column_by_column() -> None:
    """'The first die indicates the group, the second indicates the item within the group.'
    Appearance and details are printed like the magic tables (12 rows, no break): group 1
    is column 1 rows 1-6, group 2 column 1 rows 7-12, group 3 column 2 rows 1-6, ..."""
    assert t.APPEARANCES[d66_index(1, 1)] == "Aquiline"
    assert t.APPEARANCES[d66_index(2, 1)] == "Ill-favored"
    assert t.APPEARANCES[d66_index(3, 1)] == "Bullnecked"
    assert t.DETAILS[d66_index(6, 6)] == "War Paint"
    assert t.DETAILS[d66_index(2, 1)] == "Haute Couture"
    assert m.CORPOREAL_EFFECTS[d66_index(2, 1)] == "Hindering"
    # The item table is printed as two 6-row blocks: "3, 4" is block 1, column 3: Lantern.
    assert t.ITEMS[d66_index(3, 4)] == "Lantern"


@pytest.mark.parametrize("bad", [True, "1", 1.0])
def test_integer_fields_refuse_booleans_strings_and_floats(bad: object) -> None:
    """'Ability scores may never rise higher than +3' — only integers are scores."""
    models: list[tuple[type[BaseModel], str]] = [
        (SaveRequest, "ability"),
        (OpposedSaveRequest, "attacker_bonus"),
        (AttackRequest, "combat_bonus"),
        (AttackOddsRequest, "ac"),
        (SigilRequest, "count"),
        (SpellRequest, "base"),
    ]
    for model, field in models:
        with pytest.raises(ValidationError):
            model.model_validate({field: bad})
    with pytest.raises(ValidationError):
        HealRequest.model_validate({"hp": bad, "max_hp": 6})
    with pytest.raises(ValidationError):
        LevelUpRequest.model_validate({"level": 2, "abilities": {"strength": bad}})


def test_enum_fields_still_take_their_string_values() -> None:
    """'Safe, easy tasks always succeed' — risk, ties, realm, reach arrive as strings."""
    assert SaveRequest.model_validate({"risk": "safe"}).risk == "safe"
    assert OpposedSaveRequest.model_validate({"ties": "reroll"}).ties == "reroll"
    assert SigilRequest.model_validate({"realm": "ethereal"}).realm == "ethereal"
    assert SpellRequest.model_validate({"reach": "far"}).reach == "far"
    assert CharacterRequest.model_validate({"gear_package": "B"}).gear_package == "B"
    assert TurnRequest.model_validate({"actions": ["maneuver"], "armor": "heavy"}).armor == "heavy"


def test_an_attack_takes_its_ac_from_the_targets_gear() -> None:
    """'Unarmored characters have AC 6. Light armor and shields provide +1 AC each, and
    heavy armor provides +2 AC.'"""
    assert AttackOddsRequest().armor_class == 6
    assert AttackOddsRequest.model_validate({"gear": {"armor": "heavy"}}).armor_class == 8
    gear = {"armor": "light", "shield": True}
    assert AttackOddsRequest.model_validate({"gear": gear}).armor_class == 8
    with pytest.raises(ValidationError):
        AttackOddsRequest.model_validate({"gear": gear, "ac": 7})


def test_the_xp_table_gives_level_features_max_hp_and_sigil_slots() -> None:
    """'When you have enough XP, gain a level and 2 max HP.' and the XP table."""
    s = standing(42)
    assert (s.level, s.max_hp, s.sigil_slots, s.paths, s.next_level_xp) == (7, 18, 3, 2, 56)
    assert s.features[-1] is Feature.SIGIL_SLOT
    assert standing(90).next_level_xp is None


def test_a_level_up_applies_the_chosen_feature() -> None:
    """'Ability Score +1 OR Combat Bonus +1' and 'Ability scores may never rise higher
    than +3.'"""
    base = Abilities(strength=3, dexterity=0, will=-1)
    up = level_up(2, base, 1, choice=Choice.COMBAT_BONUS)
    assert (up.level, up.combat_bonus, up.abilities, up.max_hp) == (3, 2, base, 10)
    up = level_up(2, base, 1, choice=Choice.ABILITY, ability=Ability.DEX)
    assert (up.abilities.dexterity, up.combat_bonus) == (1, 1)
    assert level_up(1, base, 1, ability=Ability.WIL).abilities.will == 0
    assert level_up(3, base, 1).sigil_slots == 2
    for kwargs, code in [
        ({"ability": Ability.STR}, "ability_at_max"),
        ({}, "ability_required"),
        ({"choice": Choice.COMBAT_BONUS}, "invalid_choice"),
    ]:
        with pytest.raises(MazeRatsError) as refused:
            level_up(1, base, 1, **kwargs)  # type: ignore[arg-type]
        assert refused.value.code == code
    with pytest.raises(MazeRatsError) as refused:
        level_up(2, base, 1)
    assert refused.value.code == "choice_required"
