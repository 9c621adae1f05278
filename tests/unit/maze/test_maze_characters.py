"""Characters, skills, traits and content packs."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from services.maze.abilities import Ability
from services.maze.catalog import Catalog, extend, load_pack
from services.maze.character import Character
from services.maze.checks import check_for
from services.maze.errors import MazeError
from services.maze.rules import MazeRules
from services.maze.validation import lose_partner, validate_character, validate_party


def codes(character: Character, catalog: Catalog, creation: bool = False) -> set[str]:
    return {i.code for i in validate_character(character, catalog, creation=creation)}


def test_a_fresh_character_with_one_background_and_personality_is_valid(
    hero: Character, catalog: Catalog
) -> None:
    """ "pick 1 or 2 Background Traits and 1-3 Personality Traits to start." """
    assert codes(hero, catalog, creation=True) == set()


def test_each_die_is_used_exactly_once(hero: Character, catalog: Catalog) -> None:
    """ "Each player picks one die (d12, d10, d8 or d6) to associate with each of the main
    abilities." """
    twice = hero.model_copy(update={"abilities": {a: 12 for a in Ability}})
    assert "dice_not_distinct" in codes(twice, catalog)
    loose = validate_character(twice, catalog, MazeRules(distinct_dice=False))
    assert not loose


def test_trait_counts_at_creation_are_enforced(hero: Character, catalog: Catalog) -> None:
    """ "pick 1 or 2 Background Traits and 1-3 Personality Traits to start." """
    many = hero.model_copy(
        update={"traits": ["Assassin", "Doctor", "Soldier", "Crybaby", "Obsessive"]}
    )
    assert "background_trait_count" in codes(many, catalog, creation=True)
    none = hero.model_copy(update={"traits": ["Soldier"]})
    assert "personality_trait_count" in codes(none, catalog, creation=True)


def test_runner_traits_are_gained_through_gameplay(hero: Character, catalog: Catalog) -> None:
    """ "Runner Traits are gained through gameplay as opposed to Background Traits"."""
    runner = hero.model_copy(update={"traits": [*hero.traits, "Cartographer"]})
    assert "earned_trait_at_creation" in codes(runner, catalog, creation=True)
    assert codes(runner, catalog) == set()


def test_party_and_solo_are_mutually_exclusive(hero: Character, catalog: Catalog) -> None:
    """PARTY: "Note: Mutually exclusive with Solo." """
    both = hero.model_copy(update={"traits": [*hero.traits, "Party", "Solo"]})
    assert "exclusive_traits" in codes(both, catalog)


def test_at_most_one_subtrait_matching_the_runner_trait(hero: Character, catalog: Catalog) -> None:
    """ "A character may have up to one subtrait corresponding to their main runner trait." """
    two = hero.model_copy(update={"traits": [*hero.traits, "Party", "Leader", "Leech"]})
    assert "too_many_subtraits" in codes(two, catalog)
    wrong = hero.model_copy(update={"traits": [*hero.traits, "Party", "Speedrunner"]})
    assert "subtrait_without_parent" in codes(wrong, catalog)
    right = hero.model_copy(update={"traits": [*hero.traits, "Solo", "Speedrunner"]})
    assert codes(right, catalog) == set()


def test_buddy_needs_two_holders_and_is_lost_with_a_partner(
    hero: Character, catalog: Catalog
) -> None:
    """BUDDY: "Trait must be had by two or more partners at a time. If one partner dies,
    becomes incapacitated, or if a falling out occurs, character loses this trait." """
    traits = [*hero.traits, "Party", "Buddy"]
    a = hero.model_copy(update={"name": "A", "traits": traits, "buddies": ["B"]})
    b = hero.model_copy(update={"name": "B", "traits": traits, "buddies": ["A"]})
    assert validate_party([a, b], catalog) == []
    assert [i.code for i in validate_party([a], catalog)] == ["too_few_holders"]
    after = lose_partner([a, b], "B")
    assert all("Buddy" not in c.traits for c in after)
    assert all("Party" in c.traits for c in after)


def test_content_packs_add_skills_and_traits(hero: Character, catalog: Catalog) -> None:
    """ "Each skill is associated with an ability": a pack adds skills tied to abilities and
    traits whose effects are data."""
    pack = load_pack(
        '{"name": "house", "skills": [{"name": "Lockpicking", "ability": "ready"}],'
        ' "traits": [{"name": "Lucky", "kind": "personality",'
        ' "bonus": {"skill_modifiers": {"Lockpicking": 2}, "luck": 3},'
        ' "weakness": {"die_changes": {"navigation": 6}}}]}'
    )
    bigger = extend(catalog, pack)
    lucky = hero.model_copy(
        update={"traits": [*hero.traits, "Lucky"], "skills": {"Lockpicking": 1}}
    )
    assert check_for(lucky, "Lockpicking", bigger).modifier == 3
    assert check_for(lucky, "Mapping", bigger).die == 6
    with pytest.raises(MazeError) as caught:
        extend(bigger, pack)
    assert caught.value.code == "duplicate_definition"
    with pytest.raises(ValidationError):
        load_pack({"name": "bad", "skills": [{"name": "X", "ability": "luck"}]})


def test_luck_traits_add_to_loot_checks(hero: Character, catalog: Catalog) -> None:
    """LOOT CHECK: "Any trait that refers to luck may be added as a bonus to these rolls." """
    pack = load_pack(
        {"name": "p", "traits": [{"name": "Lucky", "kind": "personality", "bonus": {"luck": 2}}]}
    )
    lucky = hero.model_copy(update={"traits": [*hero.traits, "Lucky"], "skills": {}})
    from services.maze.traits import CheckKind

    assert check_for(lucky, "Scavenge", extend(catalog, pack), kind=CheckKind.LOOT).modifier == 2
    assert check_for(lucky, "Scavenge", extend(catalog, pack)).modifier == 0


def test_the_named_traits_ship_with_neutral_effects(catalog: Catalog) -> None:
    """The trait sections list "BONUS:" and "WEAKNESS:" with nothing after them."""
    names = {
        "Assassin",
        "Charlatan",
        "Doctor",
        "Soldier",
        "Superfan",
        "Crybaby",
        "Obsessive",
        "Slippery",
        "Cartographer",
        "Party",
        "Buddy",
        "Leader",
        "Leech",
        "Solo",
        "Acclimated",
        "Pathetic",
        "Speedrunner",
        "Farmer",
        "Architect",
        "Hermit",
    }
    assert set(catalog.traits) == names
    assert all(t.bonus.skill_modifiers == {} for t in catalog.traits.values())
    assert catalog.traits["Buddy"].min_holders == 2
