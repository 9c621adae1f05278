"""The character generator, its tables, the market and hirelings."""

from __future__ import annotations

import pytest

from services.dice import seeded_rng
from services.mazerats import MazeRatsError
from services.mazerats.character import check_creation, creation_problems
from services.mazerats.generator import generate_character
from services.mazerats.market import HIRELINGS, MARKET
from services.mazerats.tables import character as t
from services.mazerats.tables.d66 import d66_index


def test_three_four_on_the_item_table_is_a_lantern() -> None:
    """'The first die indicates the group, the second indicates the item within the group.
    I.e. "3, 4" means group 3, item 4: Lantern.'"""
    assert t.ITEMS[d66_index(3, 4)] == "Lantern"
    assert t.ITEMS[d66_index(1, 1)] == "Animal Scent"
    assert t.ITEMS[d66_index(6, 6)] == "Whistle"


def test_every_creation_table_has_its_printed_size() -> None:
    """'Roll a row' (6 rows), '1d Path' (6), and the 36-entry items, appearance, details."""
    assert len(t.ABILITY_ROWS) == 6 and len(t.PATHS) == 6
    assert all(sum(row) == 0 for row in t.ABILITY_ROWS)
    assert len(set(t.ITEMS)) == len(set(t.APPEARANCES)) == len(set(t.DETAILS)) == 36


def test_a_generated_character_follows_every_creation_step() -> None:
    """'You start with a max of 6 hit points, and a Combat Bonus of +1.'"""
    for seed in map(str, range(50)):
        c = generate_character(seeded_rng(seed), seed=seed)
        assert creation_problems(c) == []
        assert (c.max_hp, c.hp, c.combat_bonus, c.level, c.sigil_slots) == (6, 6, 1, 1, 1)
        row = t.ABILITY_ROWS[c.ability_row - 1]
        assert (c.abilities.strength, c.abilities.dexterity, c.abilities.will) == row
        assert len(c.items) == 6 and len(c.paths) == 1
        assert c.sigils == ()


def test_gear_packages_give_their_armor_class() -> None:
    """'A) Light armor, a shield, and a light weapon. B) Light armor and a heavy weapon.'"""
    a = generate_character(seeded_rng("p"), gear_package="A")
    b = generate_character(seeded_rng("p"), gear_package="B")
    assert a.armor_class == 8 and a.weapon.entry in t.LIGHT_WEAPONS
    assert b.armor_class == 7 and b.weapon.entry in t.HEAVY_WEAPONS


def test_the_same_seed_gives_the_same_character() -> None:
    """'Roll or choose' every table: rolled from one seed, the sheet is reproducible."""
    one = generate_character(seeded_rng("rat"), seed="rat")
    assert one == generate_character(seeded_rng("rat"), seed="rat")
    assert one != generate_character(seeded_rng("mouse"), seed="mouse")


def test_unique_items_rerolls_duplicates() -> None:
    """'Roll or choose six items': duplicates are rerolled when the table asks for it."""
    for seed in map(str, range(30)):
        c = generate_character(seeded_rng(seed), unique_items=True)
        assert len({i.entry for i in c.items}) == 6


def test_a_tampered_character_is_refused() -> None:
    """'You start with a max of 6 hit points'"""
    c = generate_character(seeded_rng("x"))
    with pytest.raises(MazeRatsError) as err:
        check_creation(c.model_copy(update={"max_hp": 9}))
    assert err.value.code == "invalid_character"


def test_the_market_reads_og_as_zero_g() -> None:
    """'Light Weapons (2og) ... Heavy Armor (20og): Chain, plate, etc. +2 AC.'"""
    wares = {w.name: w for w in MARKET}
    assert wares["Light Weapon"].price.low == 20
    assert wares["Heavy Weapon"].damage_bonus == 1 and wares["Heavy Weapon"].hands == 2
    assert wares["Heavy Armor"].price.low == 200 and wares["Heavy Armor"].ac_bonus == 2
    assert wares["Falcon"].price.low == 1_000
    assert wares["Palace"].price.low == 1_000_000


def test_the_hirelings_match_the_text() -> None:
    """'Mercenary (20-50g/day): 7 HP, AC 7 or 8, Short Sword or Bow, Combat Bonus +1.'"""
    hired = {h.name: h for h in HIRELINGS}
    merc = hired["Mercenary"]
    assert (merc.wage.low, merc.wage.high, merc.wage.per) == (20, 50, "day")
    assert (merc.hp, merc.ac, merc.combat_bonus) == (7, (7, 8), 1)
    assert hired["Domestic Servant"].wage.per == "month"
    assert len(HIRELINGS) == 6
