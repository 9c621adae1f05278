"""Weapons, re-actions and initiative."""

from __future__ import annotations

from fractions import Fraction

import pytest

from services.haze import (
    ActionSpec,
    Attack,
    HazeRules,
    InitiativeRoll,
    Weapon,
    ambush_first_round,
    ambush_penalty,
    attack_difficulty,
    hit_odds,
    initiative_order,
    initiative_spec,
    reaction_penalty,
    resolve,
    resolve_reaction,
    target,
)
from services.haze.errors import WindOnMelee, WindTooStrong

SWORD = Weapon(difficulty=1, requisite=6)
BOW = Weapon(difficulty=2, ranged=True)


def test_a_melee_attack_adds_the_weapon_difficulty() -> None:
    """'Melee attacks work identically to regular action rolls, however they are modified by
    the difficulty of the weapon being wielded.'"""
    assert attack_difficulty(Attack(weapon=SWORD, strength=7)) == 1
    spec = ActionSpec(ability=6, skill=2, attack=Attack(weapon=SWORD, strength=6))
    assert resolve(spec, 7).success and not resolve(spec, 8).success


def test_each_point_of_strength_short_of_the_requisite_adds_one() -> None:
    """'the Melee combatant is further penalized for each point of strength short of the
    requisite they are for the weapon they are using.'"""
    assert attack_difficulty(Attack(weapon=SWORD, strength=4)) == 1 + 2


def test_a_cross_wind_adds_up_to_five_to_a_ranged_shot() -> None:
    """'a cross wind can add up to five to the difficulty of a shot as conditions and range
    become more extreme.'"""
    assert attack_difficulty(Attack(weapon=BOW, wind=5)) == 7
    with pytest.raises(WindTooStrong):
        attack_difficulty(Attack(weapon=BOW, wind=6))
    with pytest.raises(WindOnMelee):
        attack_difficulty(Attack(weapon=SWORD, strength=6, wind=1))


def test_the_defenders_success_counts_against_the_attacker() -> None:
    """'When re-actions are possible the success of the defender counts against the success
    of the attacker as difficulty.'"""
    blow = resolve(ActionSpec(ability=8), 3)  # success rate 5
    dodge = resolve(ActionSpec(ability=5, skill=1), 4)  # success rate 2
    outcome = resolve_reaction(blow, dodge)
    assert (outcome.defence, outcome.success_rate, outcome.hit) == (2, 3, True)


def test_a_higher_defence_dodges_the_blow() -> None:
    """'if the defender has a higher success rate than the attacker then the blow is
    effectively dodged.'"""
    blow = resolve(ActionSpec(ability=8), 6)  # 2
    assert not resolve_reaction(blow, resolve(ActionSpec(ability=8), 5)).hit  # 3
    tie = resolve_reaction(blow, resolve(ActionSpec(ability=8), 6))
    assert tie.hit  # not higher: the blow lands
    assert not resolve_reaction(
        blow, resolve(ActionSpec(ability=8), 6), HazeRules(reaction_tie="defender")
    ).hit


def test_a_failed_re_action_takes_nothing_off() -> None:
    """'Success at dodging reduces your opponents hitting success.'"""
    blow = resolve(ActionSpec(ability=8), 8)
    assert resolve_reaction(blow, resolve(ActionSpec(ability=3), 9)).hit
    assert not resolve_reaction(resolve(ActionSpec(ability=3), 9), None).hit


def test_the_chance_to_land_a_blow_is_exact() -> None:
    """'if one warrior tries to hit another and has a target roll of eight, the defender can
    roll to attempt to dodge the blow'"""
    # Attacker target 8 vs defender target 1: the defender only succeeds on a 1 (rate 0),
    # which takes nothing off, so the blow lands whenever the attack succeeds: 8/10.
    assert hit_odds(ActionSpec(ability=8), ActionSpec(ability=1)) == Fraction(4, 5)
    # Equal targets of 1: each succeeds only on a 1 with rate 0: 1/10.
    assert hit_odds(ActionSpec(ability=1), ActionSpec(ability=1)) == Fraction(1, 10)
    # Target 2 vs 2: attack rate 1 (face 1) or 0 (face 2); defence 1 only on a 1.
    # Hits: face 1 vs any defence (a tie at 1 goes to the attacker) = 10; face 2 vs
    # defence faces 2..10 = 9, and vs a 1 (rate 1 > 0) misses → 19/100.
    assert hit_odds(ActionSpec(ability=2), ActionSpec(ability=2)) == Fraction(19, 100)


def test_initiative_is_wits_plus_the_initiative_skill() -> None:
    """'all players roll Wits plus the initiative skill (wits + initiative).'"""
    assert target(initiative_spec(5, 2)) == 7


def test_the_highest_success_rate_reacts_first() -> None:
    """'The ones with the highest success rate get to react first.'"""
    rolls = [
        InitiativeRoll(name="a", success_rate=1, wits=5),
        InitiativeRoll(name="b", success_rate=4, wits=3),
        InitiativeRoll(name="c", success_rate=1, wits=7),
    ]
    assert initiative_order(rolls) == [["b"], ["a", "c"]]
    assert initiative_order(rolls, HazeRules(initiative_ties="wits")) == [["b"], ["c"], ["a"]]


def test_initiative_counts_against_the_defenders_re_actions() -> None:
    """'if one player rolls a success rate of 4 for initiative and another rolls a success
    rate of five then the one with a success rate of four would have a minus one penalty to
    dodge or block re-action rolls against his attacker for that round (5 - 4 = 1).'"""
    assert reaction_penalty(5, 4) == 1
    assert reaction_penalty(4, 5) == 0


def test_in_an_ambush_only_the_ambushers_act_and_their_rate_is_everyones_penalty() -> None:
    """'In an ambush situation only the ambushers have an initiative roll in the first round
    ... In the case of an ambush, the success rate of the ambusher is everyone's penalty for
    the first round of combat.'"""
    ambushers = [
        InitiativeRoll(name="x", success_rate=3, wits=5),
        InitiativeRoll(name="y", success_rate=6, wits=5),
    ]
    assert ambush_first_round(ambushers) == [["y"], ["x"]]
    assert ambush_penalty([3, 6]) == 6
    assert ambush_penalty([-2]) == 0
