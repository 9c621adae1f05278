"""Attacks, damage, armor class, turns and healing."""

from __future__ import annotations

from fractions import Fraction

import pytest

from services.dice import seeded_rng
from services.mazerats import HealingUnavailable, MazeRatsError, RuleViolation
from services.mazerats.combat import apply_damage, attack_expression, attack_odds, roll_attack
from services.mazerats.gear import Armor, Gear, Weapon, armor_class
from services.mazerats.healing import HealMethod, half_damage, heal
from services.mazerats.turns import Action, check_turn


def test_an_attack_hits_when_the_total_exceeds_ac_and_deals_the_difference() -> None:
    """'If the total exceeds the target's Armor Class (AC), you hit and deal damage to their
    HP equal to the difference (+1 if using a heavy weapon).'"""
    assert attack_expression(1, 6) == "2d6+1 > 6"
    for seed in map(str, range(40)):
        a = roll_attack(seeded_rng(seed), combat_bonus=1, ac=7, heavy_weapon=True)
        assert a.total == sum(a.dice) + 1
        assert a.hit == (a.total > 7)
        assert a.damage == (a.total - 7 + 1 if a.hit else 0)


def test_attack_odds_and_damage_distribution_by_hand() -> None:
    """'roll 2d and add your PC's Combat Bonus (+1 at level 1) ... Unarmored characters have
    AC 6.' 2d6+1 > 6 is 2d6 >= 6: 26 of 36; damage d = 2d6 - 5 for d = 1..7."""
    odds = attack_odds(1, 6)
    assert odds.hit == Fraction(26, 36)
    assert odds.damage == {
        0: Fraction(10, 36),
        1: Fraction(5, 36),
        2: Fraction(6, 36),
        3: Fraction(5, 36),
        4: Fraction(4, 36),
        5: Fraction(3, 36),
        6: Fraction(2, 36),
        7: Fraction(1, 36),
    }
    assert odds.mean_damage == Fraction(5 + 12 + 15 + 16 + 15 + 12 + 7, 36)


def test_a_heavy_weapon_adds_one_damage_only_on_a_hit() -> None:
    """'(+1 if using a heavy weapon)'"""
    odds = attack_odds(1, 6, heavy_weapon=True)
    assert odds.damage[0] == Fraction(10, 36)
    assert 1 not in odds.damage
    assert odds.damage[8] == Fraction(1, 36)


def test_ranged_attacks_are_prohibited_in_close_combat() -> None:
    """'Ranged attacks are prohibited in close combat.'"""
    with pytest.raises(RuleViolation) as err:
        roll_attack(seeded_rng("x"), ranged=True, in_close_combat=True)
    assert err.value.code == "ranged_in_close_combat"
    roll_attack(seeded_rng("x"), ranged=True)


def test_armor_class_is_six_plus_light_armor_shield_and_heavy_armor() -> None:
    """'Unarmored characters have AC 6. Light armor and shields provide +1 AC each, and heavy
    armor provides +2 AC.'"""
    assert armor_class() == 6
    assert armor_class(Armor.LIGHT) == 7
    assert armor_class(Armor.LIGHT, shield=True) == 8
    assert armor_class(Armor.HEAVY) == 8
    assert armor_class(Armor.HEAVY, shield=True) == 9


def test_a_shield_and_a_heavy_weapon_need_more_than_two_hands() -> None:
    """'Shield (1 hand)' and 'Heavy Weapon (2 hands, +1 damage)'."""
    with pytest.raises(RuleViolation) as err:
        Gear(shield=True, weapon=Weapon.HEAVY)
    assert err.value.code == "too_many_hands"
    assert Gear(shield=True, weapon=Weapon.LIGHT).ac == 7


def test_zero_hp_means_death() -> None:
    """'Zero HP means death.'"""
    assert apply_damage(5, 3) == (2, False)
    assert apply_damage(3, 7) == (0, True)


def test_maneuvers_are_refused_in_heavy_armor() -> None:
    """'characters can also attempt combat maneuvers ... as long as they are not wearing
    heavy armor.'"""
    assert check_turn([Action.MANEUVER, Action.MOVE], Armor.LIGHT) == 2
    with pytest.raises(RuleViolation) as err:
        check_turn([Action.MANEUVER], Armor.HEAVY)
    assert err.value.code == "maneuver_in_heavy_armor"


def test_a_turn_has_two_actions_one_attack_and_a_spell_takes_both() -> None:
    """'each of its characters may take two actions ... attacking (only once per round)'
    and 'Casting a spell takes two actions.'"""
    assert check_turn([Action.ATTACK, Action.MOVE]) == 2
    assert check_turn([Action.CAST_SPELL]) == 2
    for bad, code in [
        ([Action.ATTACK, Action.ATTACK], "attack_once"),
        ([Action.CAST_SPELL, Action.MOVE], "too_many_actions"),
        ([Action.MOVE, Action.MOVE, Action.MOVE], "too_many_actions"),
    ]:
        with pytest.raises(RuleViolation) as err:
            check_turn(bad)
        assert err.value.code == code


def test_healing_restores_half_the_damage_rounded_up() -> None:
    """'Heal half your damage (rounded up)'"""
    assert half_damage(1, 6) == 3  # 5 damage → 3
    assert half_damage(2, 6) == 2  # 4 damage → 2
    assert half_damage(6, 6) == 0
    with pytest.raises(MazeRatsError):
        half_damage(7, 6)


def test_a_ration_heals_only_during_a_rest_and_once_a_day() -> None:
    """'by eating a ration during a rest ... Each works once per day.'"""
    with pytest.raises(HealingUnavailable) as err:
        heal(seeded_rng("r"), HealMethod.RATION, 1, 6)
    assert err.value.code == "ration_needs_rest"
    done = heal(seeded_rng("r"), HealMethod.RATION, 1, 6, resting=True)
    assert (done.healed, done.hp, done.save) == (3, 4, None)
    with pytest.raises(HealingUnavailable) as again:
        heal(seeded_rng("r"), HealMethod.RATION, 4, 6, resting=True, used_today=done.used_today)
    assert again.value.code == "healing_used_today"


def test_a_bandage_heals_on_a_passed_will_save() -> None:
    """'or by using a bandage and passing a healing (WIL) save.'"""
    for seed in map(str, range(20)):
        done = heal(seeded_rng(seed), HealMethod.BANDAGE, 2, 6, will=1)
        assert done.save is not None and done.save.bonus == 1
        assert done.healed == (2 if done.save.success else 0)
        assert HealMethod.BANDAGE in done.used_today


def test_magic_never_heals_hp() -> None:
    """'Magic can never heal HP.'"""
    with pytest.raises(HealingUnavailable) as err:
        heal(seeded_rng("m"), HealMethod.MAGIC, 1, 6)
    assert err.value.code == "magic_cannot_heal"
