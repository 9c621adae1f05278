"""Rules the review found missing: abilities, exclusions, automatic outcomes, damage
tokens and halves, loot and group checks, content packs through the use cases."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from services.maze import usecases
from services.maze.abilities import Ability
from services.maze.catalog import Catalog, load_pack
from services.maze.character import Character
from services.maze.checks import CheckSpec, build_check, check_for, resolve_check
from services.maze.damage import DamageSpec, damage_odds_with_half, damage_tokens
from services.maze.effects import Effect
from services.maze.errors import MazeError
from services.maze.group_odds import group_odds
from services.maze.injuries import Injury
from services.maze.requests import (
    CheckRequest,
    GroupRequest,
    LootRequest,
    MazeCharacter,
    ValidateRequest,
)
from services.maze.rules import MazeRules
from services.maze.traits import CheckKind
from tests.unit.maze.scripted import ScriptedRng


def test_a_check_with_an_ability_without_a_die_is_refused(catalog: Catalog) -> None:
    """ "use the die associated with that skill's ability": no die, no check."""
    bare = Character(name="a", abilities={})
    with pytest.raises(MazeError) as caught:
        check_for(bare, "Combat", catalog)
    assert caught.value.code == "missing_ability"


@pytest.mark.parametrize("order", [["Zealot", "Crybaby"], ["Crybaby", "Zealot"]])
def test_a_one_way_exclusion_binds_both_traits_in_any_order(
    hero: Character, order: list[str]
) -> None:
    """PARTY: "Mutually exclusive with Solo" — an exclusion stated on one trait is mutual."""
    pack = {
        "name": "p",
        "traits": [{"name": "Zealot", "kind": "personality", "excludes": ["Crybaby"]}],
    }
    character = hero.model_copy(update={"traits": ["Soldier", *order]})
    issues = usecases.validate(
        ValidateRequest.model_validate(
            {"character": MazeCharacter.of(character), "content_pack": pack}
        )
    )
    assert [i.message for i in issues if i.code == "exclusive_traits"] == [
        "Crybaby is mutually exclusive with Zealot"
    ]


def test_tokens_and_halves_on_an_automatic_failure_are_refused() -> None:
    """Contentment: "A character's first Ready check ... automatically become a Failure" —
    there is no total to add tokens to, nor a die to take half of."""
    spec = build_check(10, 2, Ability.READY, dc=5, effects=frozenset({Effect.CONTENTMENT}))
    with pytest.raises(MazeError) as caught:
        resolve_check(spec, ScriptedRng([]), tokens=3)
    assert caught.value.code == "tokens_not_allowed"
    with pytest.raises(MazeError) as half:
        resolve_check(spec, ScriptedRng([]), take_half=True)
    assert half.value.code == "half_not_allowed"


@pytest.mark.parametrize(
    ("injury", "tokens"),
    [(Injury.SERIOUS, 1), (Injury.GRAVE, 1), (Injury.FATAL, 2), (Injury.MINOR, 0)],
)
def test_a_failed_damage_roll_awards_tokens_like_the_charts_failures(
    injury: Injury, tokens: int
) -> None:
    """ "If you fail a roll, you will be granted adversity token(s)"; "failing a damage
    roll with a Serious Injury or worse" — Serious 1, Grave 1, Fatal 2 (chart: 1, 1, 2)."""
    assert damage_tokens(injury) == tokens
    assert damage_tokens(injury, MazeRules.model_validate({"damage_tokens": "none"})) == 0


def test_taking_half_on_a_damage_roll_is_compared_by_injury() -> None:
    """TAKING HALF: "On normal rolls and damage rolls" — d12+10: half 16 is Superficial;
    a roll is a Scratch on 10+ (1/4), Superficial on 5..9 (5/12), worse on 1..4 (1/3)."""
    odds = damage_odds_with_half(DamageSpec(check=CheckSpec(die=12, modifier=10)))
    half = odds.half
    assert (half.score, half.injury) == (16, Injury.SUPERFICIAL)
    assert (half.p_roll_better, half.p_roll_same, half.p_roll_worse) == (
        Fraction(1, 4),
        Fraction(5, 12),
        Fraction(1, 3),
    )
    assert half.beats_rolling
    low = damage_odds_with_half(DamageSpec(check=CheckSpec(die=6, modifier=1))).half
    assert low.injury is Injury.GRAVE and low.p_roll_worse == 0 and not low.beats_rolling


def test_a_majority_group_check_is_exact() -> None:
    """GROUP CHECK: "Each character rolls individually" — two d6 against DC 4, at least
    one of two reaching it: 1 − (1/2)² = 3/4."""
    members = [CheckSpec(die=6, modifier=0)] * 2
    odds = group_odds(members, 4, MazeRules.model_validate({"group_mode": "majority"}))
    assert odds.success == Fraction(3, 4) and odds.exact


def test_a_summed_group_check_is_exact() -> None:
    """GROUP CHECK: "to hit a collective DC" — d10+2 and d8+1 summing to 12: by hand the
    dice fall short (X + Y ≤ 8) in 28/80 = 7/20 of cases, so exactly 13/20."""
    odds = group_odds([CheckSpec(die=10, modifier=2), CheckSpec(die=8, modifier=1)], 12)
    assert odds.exact and odds.error_bound == 0
    assert odds.success == Fraction(13, 20)
    assert odds.bands is not None
    assert sum(odds.bands.values(), Fraction()) == 1
    single = group_odds([CheckSpec(die=10, modifier=2)], 6)
    assert single.exact and single.success == Fraction(7, 10)


def test_loot_and_group_kinds_are_refused_by_the_plain_check() -> None:
    """LOOT CHECK gives a "class of loot", GROUP CHECK a "collective DC": not a band."""
    with pytest.raises(MazeError) as caught:
        usecases.roll_check(CheckRequest(die=8, kind=CheckKind.LOOT), ScriptedRng([3]))
    assert caught.value.code == "use_kind_endpoint"
    # The answer names the use in both APIs: a GraphQL caller gets its field.
    assert "POST /v1/maze/loot-checks (GraphQL mazeLootCheck)" in str(caught.value)
    with pytest.raises(MazeError) as caught:
        usecases.odds_of_check(CheckRequest(die=8, kind=CheckKind.GROUP))
    assert "POST /v1/maze/group-checks (GraphQL mazeGroupCheck)" in str(caught.value)
    # ... and both exist in the contract.
    contract = Path(__file__).parents[3] / "openapi"
    rest, graphql = (contract / f for f in ("openapi.yaml", "schema.graphql"))
    for path, field in usecases.OWN_ENDPOINT.values():
        assert f"  /v1/maze/{path}:\n    post:" in rest.read_text()
        assert f"  {field}(" in graphql.read_text()


def test_loot_and_group_use_cases_roll_and_read_their_results() -> None:
    """LOOT CHECK: "what class of loot (Common, Uncommon, Rare, Ultra, Legendary)"."""
    loot = usecases.roll_loot(LootRequest(die=12, modifier=2), ScriptedRng([9]))
    assert (loot.total, loot.loot_class) == (11, "Rare")
    assert sum(usecases.odds_of_loot(LootRequest(die=12, modifier=2)).values()) == 1
    request = GroupRequest.model_validate({"members": [{"die": 6}, {"die": 8}], "dc": 10})
    outcome, odds = usecases.roll_group(request, ScriptedRng([4, 6]))
    assert outcome.total == 10 and outcome.success and odds.mode == "sum"


def test_a_content_pack_trait_changes_a_check_through_the_use_case(hero: Character) -> None:
    """Trait BONUS (blank in the text, data here): a +2 to Combat raises the total by 2."""
    pack = load_pack(
        {
            "name": "p",
            "traits": [
                {
                    "name": "Brawler",
                    "kind": "personality",
                    "bonus": {"skill_modifiers": {"Combat": 2}},
                }
            ],
        }
    )
    brawler = hero.model_copy(update={"traits": [*hero.traits, "Brawler"]})
    sheet = MazeCharacter.of(brawler)
    request = CheckRequest(character=sheet, skill="Combat", dc=6, content_pack=pack)
    outcome = usecases.roll_check(request, ScriptedRng([5]))
    assert outcome.total == 5 + 2 + 2
