"""Issue 19 for Maze Rats: casting a spell, initiative without surprise, and character
creation's "roll or choose" steps."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from services.chance import Chance
from services.dice import seeded_rng
from services.mazerats import MazeRatsError
from services.mazerats.casting import cast_spell
from services.mazerats.character import creation_problems
from services.mazerats.encounters import Side
from services.mazerats.generator import generate_character
from services.mazerats.play_requests import CastRequest, InitiativeRequest
from services.mazerats.requests import CharacterRequest
from services.mazerats.usecases import create_character, initiative


def p_save_by_enumeration(bonus: int) -> Fraction:
    """P(2d6 + bonus ≥ 9) by counting the 36 faces."""
    hits = sum(1 for a, b in itertools.product(range(1, 7), repeat=2) if a + b + bonus >= 9)
    return Fraction(hits, 36)


# --- Spellcasting ------------------------------------------------------------------------


def test_casting_takes_two_actions_and_hp_equal_to_the_cost() -> None:
    """Spellcasting: "Casting a spell takes two actions. To cast a spell, lose HP equal to
    the cost of the effect you want to create." — base 2, +1 range, +1 target: 4 HP."""
    request = CastRequest.model_validate(
        {"spell": {"base": 2, "reach_steps": 1, "extra_targets": 1}, "hp": 6}
    )
    cast = cast_spell(request, seeded_rng("cast"))
    assert (cast.price.cost, cast.actions, cast.hp_before, cast.hp, cast.dead) == (
        4,
        2,
        6,
        2,
        False,
    )
    assert cast.corruption_save is None and cast.resist_odds is None and not cast.corrupted


def test_a_spell_that_costs_all_the_casters_hp_kills() -> None:
    """Combat: "Zero HP means death." — a 5 HP spell cast with 5 HP (or fewer) is death."""
    cast = cast_spell(CastRequest(spell={"base": 5}, hp=3), seeded_rng("x"))  # type: ignore[arg-type]
    assert (cast.hp, cast.dead) == (0, True)


def test_a_dead_caster_cannot_cast() -> None:
    """Combat: "Zero HP means death." — nothing is cast at 0 HP."""
    with pytest.raises(MazeRatsError) as caught:
        cast_spell(CastRequest(hp=0), seeded_rng("x"))
    assert caught.value.code == "character_dead"


@settings(max_examples=60, deadline=None)
@given(
    will=st.integers(-3, 3),
    path=st.booleans(),
    discount=st.integers(1, 4),
    seed=st.text(min_size=1, max_size=6),
)
def test_a_discount_rolls_the_corruption_will_save_with_exact_odds(
    will: int, path: bool, discount: int, seed: str
) -> None:
    """Sigil Magic: "ask for a lower cost if they risk a corruption vs. WIL save" — the
    save is rolled when casting, its odds agree with counting the 36 faces, and failing
    it corrupts."""
    request = CastRequest.model_validate(
        {
            "spell": {"base": 8, "corruption_discount": discount},
            "hp": 12,
            "will": will,
            "path_covers": path,
            "seed": seed,
        }
    )
    cast = cast_spell(request, seeded_rng(seed))
    assert cast.price.cost == 8 - discount and cast.hp == 12 - (8 - discount)
    assert cast.corruption_save is not None
    assert cast.corrupted is (not cast.corruption_save.success)
    assert cast.resist_odds == Chance.of(p_save_by_enumeration(will + int(path)))


def test_a_character_casts_from_a_sigil_it_bears_and_keeps_the_hp_left() -> None:
    """Sigil Magic: "Magic is encoded in unique, arcane tattoos called spell sigils" — a
    sheet casts only from a borne sigil; its WIL rolls the save; its HP goes down."""
    sheet = create_character(CharacterRequest(ability_row=5), seeded_rng("s"), "s")
    inked = sheet.model_copy(update={"sigils": ("Stone Fist",)})
    request = CastRequest.model_validate(
        {
            "spell": {"base": 3, "corruption_discount": 1},
            "character": inked.model_dump(mode="json"),
            "sigil": "Stone Fist",
        }
    )
    cast = cast_spell(request, seeded_rng("s"))
    assert cast.character is not None and cast.character.hp == 6 - 2
    assert cast.resist_odds == Chance.of(p_save_by_enumeration(1))  # row 5 has Will +1
    unborne = request.model_copy(update={"sigil": "Ice Wall"})
    with pytest.raises(MazeRatsError) as caught:
        cast_spell(unborne, seeded_rng("s"))
    assert caught.value.code == "sigil_not_borne"


def test_a_cast_needs_exactly_one_caster() -> None:
    """The caster is hp (and WIL) or a character sheet (and its sigil), never both."""
    sheet = create_character(CharacterRequest(), seeded_rng("s"), "s").model_dump(mode="json")
    for body in (
        {},
        {"hp": 3, "character": sheet, "sigil": "x"},
        {"character": sheet},
        {"character": sheet, "sigil": "x", "will": 2},
    ):
        with pytest.raises(ValidationError):
            CastRequest.model_validate(body)


# --- Initiative --------------------------------------------------------------------------


def test_without_surprise_no_will_saves_are_rolled_and_wills_are_refused() -> None:
    """Initiative: "Surprised characters that fail a WIL save skip their first turn." —
    with no side surprised there is nobody to roll for."""
    plain = initiative(InitiativeRequest(), seeded_rng("i"))
    assert plain.surprised == () and not plain.by_surprise
    with pytest.raises(MazeRatsError) as caught:
        initiative(InitiativeRequest(surprised_wills=[0, 1]), seeded_rng("i"))
    assert caught.value.code == "nobody_surprised"


def test_a_surprised_side_rolls_a_will_save_each_and_the_other_side_acts_first() -> None:
    """Initiative: "If one group surprises another, it gains initiative and acts first." """
    for seed in map(str, range(20)):
        outcome = initiative(
            InitiativeRequest(surprised=Side.PARTY, surprised_wills=[-1, 2]), seeded_rng(seed)
        )
        assert outcome.first is Side.OPPONENTS and outcome.by_surprise
        assert len(outcome.surprised) == 2
        for s in outcome.surprised:
            assert s.skips_first_turn is (not s.save.success)


# --- Character creation: roll or choose --------------------------------------------------


def test_the_player_may_choose_the_ability_row_path_weapon_and_items() -> None:
    """CHARACTER CREATION: "Roll a row or choose one with GM permission", "Roll or choose a
    path", "Roll or choose six items" — chosen entries carry no dice."""
    request = CharacterRequest(
        ability_row=6,
        path="sawbones",
        gear_package="B",
        weapon="Longsword",
        items=["Lantern", "Three Bandages"],
    )
    sheet = create_character(request, seeded_rng("pick"), "pick")
    assert creation_problems(sheet) == []
    assert sheet.ability_row == 6 and sheet.abilities.will == 1
    assert [(p.entry, p.dice) for p in sheet.paths] == [("Sawbones", ())]
    assert (sheet.weapon.entry, sheet.weapon.dice) == ("Longsword", ())
    assert [i.entry for i in sheet.items[:2]] == ["Lantern", "Three Bandages"]
    assert all(len(i.dice) == 2 for i in sheet.items[2:])  # the other four are rolled


def test_six_chosen_items_are_the_whole_list() -> None:
    """ "Roll or choose six items"."""
    items = ["Chalk", "Crowbar", "Knife", "Whistle", "Shovel", "Small Tent"]
    sheet = create_character(CharacterRequest(items=items), seeded_rng("six"), "six")
    assert [i.entry for i in sheet.items] == items


@pytest.mark.parametrize(
    ("choice", "code"),
    [
        ({"path": "Wizard"}, "unknown_path"),
        ({"items": ["Laser"]}, "unknown_item"),
        ({"gear_package": "A", "weapon": "Longsword"}, "unknown_weapon"),
        ({"items": ["Chalk", "Chalk"], "unique_items": True}, "duplicate_item"),
    ],
)
def test_a_choice_off_the_tables_is_refused(choice: dict[str, object], code: str) -> None:
    """Each choice is an entry of its table (a light weapon for package A)."""
    with pytest.raises(MazeRatsError) as caught:
        create_character(CharacterRequest.model_validate(choice), seeded_rng("x"), "x")
    assert caught.value.code == code


@pytest.mark.parametrize("body", [{"ability_row": 7}, {"ability_row": 0}, {"items": ["Chalk"] * 7}])
def test_a_row_off_the_table_or_a_seventh_item_is_invalid(body: dict[str, object]) -> None:
    """ "1d Strength Dexterity Will" has rows 1 to 6; there are six items."""
    with pytest.raises(ValidationError):
        CharacterRequest.model_validate(body)


def test_choosing_nothing_keeps_the_rolled_sheet_of_the_seed() -> None:
    """The generator's one seeded stream: no choice, the same sheet as before."""
    rolled = generate_character(seeded_rng("pinned"), seed="pinned")
    assert create_character(CharacterRequest(), seeded_rng("pinned"), "pinned") == rolled
