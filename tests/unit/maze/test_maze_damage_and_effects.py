"""Damage checks, injuries, treatment and effects."""

from __future__ import annotations

from fractions import Fraction

import pytest

from services.maze.abilities import Ability
from services.maze.bands import BandName
from services.maze.catalog import Catalog
from services.maze.character import Character
from services.maze.checks import build_check, check_for, resolve_check
from services.maze.damage import DamageSpec, damage_for, damage_odds, resolve_damage
from services.maze.effects import Effect, damage_rolls_due, gain_effect
from services.maze.errors import MazeError
from services.maze.injuries import Injury, InjuryRecord, cap_for, injury_for, treat
from services.maze.odds import check_odds
from services.maze.traits import CheckKind
from tests.unit.maze.scripted import ScriptedRng


@pytest.mark.parametrize(
    ("total", "injury"),
    [
        (-3, Injury.FATAL),
        (0, Injury.FATAL),
        (1, Injury.GRAVE),
        (4, Injury.GRAVE),
        (5, Injury.SERIOUS),
        (9, Injury.SERIOUS),
        (10, Injury.MINOR),
        (14, Injury.MINOR),
        (15, Injury.SUPERFICIAL),
        (19, Injury.SUPERFICIAL),
        (20, Injury.SCRATCH),
    ],
)
def test_the_injury_table_reads_the_total(total: int, injury: Injury) -> None:
    """Injury table: "Fatal Injury | 0 ... Grave Injury | 1-4 ... Serious Injury | 5-9 ...
    Minor Injury | 10-14 ... Superficial Injury | 15-19 ... Scratch | 20+"."""
    assert injury_for(total) is injury


def test_hardy_is_added_to_the_damage_roll(hero: Character, catalog: Catalog) -> None:
    """DAMAGE CHECK: "The Hardy skill modifier is added to these rolls." """
    spec = damage_for(hero, catalog)
    assert (spec.check.die, spec.check.modifier) == (10, 1)
    outcome = resolve_damage(spec, ScriptedRng([10, 8]))
    assert outcome.total == 19 and outcome.injury is Injury.SUPERFICIAL


def test_tokens_can_be_applied_to_damage_rolls(hero: Character, catalog: Catalog) -> None:
    """DAMAGE CHECK: "Adversity tokens CAN be applied to these rolls." """
    spec = damage_for(hero, catalog)
    outcome = resolve_damage(spec, ScriptedRng([10, 8]), tokens=1)
    assert outcome.injury is Injury.SCRATCH
    assert {r.injury: r.tokens for r in resolve_damage(spec, ScriptedRng([3])).reach} == {
        Injury.SERIOUS: 1,
        Injury.MINOR: 6,
        Injury.SUPERFICIAL: 11,
        Injury.SCRATCH: 16,
    }


def test_an_untreated_minor_caps_the_next_injury_at_serious() -> None:
    """Minor Injury: "Automatically, the next injury cannot be better than a Serious injury
    if left untreated." """
    assert cap_for([Injury.MINOR]) is Injury.SERIOUS
    spec = DamageSpec(check=build_check(12, 5, Ability.READY), cap=Injury.SERIOUS)
    outcome = resolve_damage(spec, ScriptedRng([12, 5]))
    assert outcome.rolled_injury is Injury.SCRATCH and outcome.injury is Injury.SERIOUS


def test_an_untreated_superficial_caps_the_next_injury_at_minor() -> None:
    """Superficial Injury: "Next injury will automatically be a Minor injury or worse if
    left untreated." """
    assert cap_for([Injury.SUPERFICIAL]) is Injury.MINOR
    assert cap_for([Injury.SUPERFICIAL, Injury.MINOR]) is Injury.SERIOUS


def test_tunnel_vision_allows_no_injury_better_than_minor() -> None:
    """Tunnel-vision: "you are incapable of taking any damage below Minor Injury"."""
    assert cap_for([], tunnel_vision=True) is Injury.MINOR


def test_damage_odds_are_exact_and_respect_the_cap() -> None:
    """Injury table with a d12 + 3: Scratch needs 17+ on the exploding d12:
    P = (12 − 5 + 1)/144 = 8/144; Fatal impossible; Grave needs a 1: 1/12."""
    spec = DamageSpec(check=build_check(12, 3, Ability.READY))
    odds = damage_odds(spec)
    assert odds[Injury.FATAL] == 0
    assert odds[Injury.GRAVE] == Fraction(1, 12)
    assert odds[Injury.SCRATCH] == Fraction(8, 144)
    assert sum(odds.values()) == 1
    capped = damage_odds(DamageSpec(check=spec.check, cap=Injury.SERIOUS))
    assert capped[Injury.SERIOUS] == 1 - Fraction(1, 12) and capped[Injury.SCRATCH] == 0


def test_serious_or_worse_fails_the_damage_roll() -> None:
    """ "Effects can be gained by failing a damage roll with a Serious Injury or worse." """
    spec = DamageSpec(check=build_check(6, 0, Ability.READY))
    assert resolve_damage(spec, ScriptedRng([5])).failed
    assert not resolve_damage(spec, ScriptedRng([6, 6, 1])).failed


def test_a_fatal_injury_cannot_be_self_treated() -> None:
    """ "Treatment may be performed on oneself except for in the occurrence of a Fatal
    injury. All injuries above Scratches require treatment." """
    injuries = (InjuryRecord(injury=Injury.FATAL), InjuryRecord(injury=Injury.MINOR))
    with pytest.raises(MazeError) as caught:
        treat(injuries, 0, by_self=True)
    assert caught.value.code == "self_treatment_of_fatal"
    assert treat(injuries, 0, by_self=False)[0].treated
    assert treat(injuries, 1, by_self=True)[1].treated


def test_hunger_thirst_and_poison_call_for_damage_rolls() -> None:
    """Poison: "If not treated, characters are required to make repeat damage rolls";
    Hunger: "can begin to take damage from starving"; Thirst: "Same as hunger"."""
    due = damage_rolls_due({Effect.HUNGER, Effect.POISON, Effect.FEAR})
    assert due == [Effect.HUNGER, Effect.POISON]
    assert damage_rolls_due({Effect.THIRST, Effect.CONTENTMENT}) == []


def test_fear_turns_ready_modifiers_negative_and_surroundings_to_a_d4() -> None:
    """Fear: "converts all skill modifiers for Ready checks to negative scores and forces
    characters to use a d4 for any Surroundings check." """
    fear = frozenset({Effect.FEAR})
    ready = build_check(10, 2, Ability.READY, effects=fear)
    assert (ready.die, ready.modifier) == (10, -2)
    looking = build_check(12, 3, Ability.SURROUNDINGS, effects=fear)
    assert (looking.die, looking.modifier) == (4, 3)


def test_exhaustion_forces_a_d4_for_every_check() -> None:
    """Exhaustion: "forces characters to use a d4 for any skill check." """
    tired = frozenset({Effect.EXHAUSTION})
    assert {build_check(12, 0, a, effects=tired).die for a in Ability} == {4}
    assert build_check(12, 0, Ability.READY, kind=CheckKind.DAMAGE, effects=tired).die == 4


def test_tunnel_vision_passes_ready_checks_as_major_successes() -> None:
    """Tunnel-vision: "Ready checks may be automatically passed as a major success"."""
    spec = build_check(6, 0, Ability.READY, dc=30, effects=frozenset({Effect.TUNNEL_VISION}))
    assert resolve_check(spec, ScriptedRng([])).band is BandName.MAJOR_SUCCESS
    assert check_odds(spec).bands[BandName.MAJOR_SUCCESS] == 1
    declined = build_check(
        6, 0, Ability.READY, effects=frozenset({Effect.TUNNEL_VISION}), claim_tunnel_vision=False
    )
    assert declined.automatic is None


def test_contentment_fails_the_first_ready_and_surroundings_checks() -> None:
    """Contentment: "A character's first Ready check and Surroundings check automatically
    become a Failure"."""
    content = frozenset({Effect.CONTENTMENT})
    for ability in (Ability.READY, Ability.SURROUNDINGS):
        spec = build_check(12, 9, ability, dc=2, effects=content)
        outcome = resolve_check(spec, ScriptedRng([]))
        assert outcome.band is BandName.FAILURE and outcome.tokens_awarded == 1
    later = build_check(
        12, 9, Ability.READY, effects=content, checked_this_run=frozenset({Ability.READY})
    )
    assert later.automatic is None
    assert build_check(12, 9, Ability.NAVIGATION, effects=content).automatic is None


def test_contentment_grants_immunity_to_hunger_thirst_fear_and_exhaustion() -> None:
    """Contentment: "you are immune to Hunger, Thirst, Fear, and Exhaustion for the entire
    current run." """
    content = frozenset({Effect.CONTENTMENT})
    for effect in (Effect.HUNGER, Effect.THIRST, Effect.FEAR, Effect.EXHAUSTION):
        assert gain_effect(content, effect) == content
    assert gain_effect(content, Effect.POISON) == content | {Effect.POISON}
    spec = build_check(
        12, 2, Ability.NAVIGATION, effects=frozenset({Effect.CONTENTMENT, Effect.EXHAUSTION})
    )
    assert spec.die == 12


def test_a_check_uses_the_die_of_the_skills_ability(hero: Character, catalog: Catalog) -> None:
    """ "When making a skill check, use the die associated with that skill's ability and add
    or subtract the modifier." """
    spec = check_for(hero, "Recall", catalog, dc=17)
    assert (spec.die, spec.modifier, spec.ability) == (12, 6, Ability.SURROUNDINGS)
    with pytest.raises(MazeError) as caught:
        check_for(hero, "Juggling", catalog)
    assert caught.value.code == "unknown_skill"
