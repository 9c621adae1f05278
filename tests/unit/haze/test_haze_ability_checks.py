"""The ability-check catalogue: each check's ability, difficulty and meaning, from haze.txt."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from services.dice import seeded_rng
from services.haze import HazeRules, initiative_spec, target
from services.haze.catalogue import CATALOGUE, check_def
from services.haze.checks import (
    HazeCheckRequest,
    check_spec,
    resolve_check_face,
    roll_check,
)
from services.haze.errors import CannotBefriend


def check(**fields: Any) -> HazeCheckRequest:
    return HazeCheckRequest.model_validate(fields)


def test_the_catalogue_lists_every_check_under_its_ability() -> None:
    """'Here are a number of common ability score checks for each of the nine ability
    scores.' (Strength: Lift, Smash, Brace; Agillity: Dodge, Vault, Leap, Balance; …)"""
    by_ability = {e.name: e.ability for e in CATALOGUE}
    assert by_ability == {
        "lift": "strength", "smash": "strength", "brace": "strength",
        "dodge": "agility", "vault": "agility", "leap": "agility", "balance": "agility",
        "resist_poison": "constitution", "resist_disease": "constitution",
        "resist_shock": "constitution", "powers_of_deduction": "intelligence",
        "concentrate": "willpower", "initiative": "wits", "insight": "wits",
        "befriend": "charisma", "anticipate": "wisdom", "remember": "wisdom",
        "sympathy": "empathy",
    }  # fmt: skip


def test_a_check_rolls_its_ability_plus_the_skill_of_the_same_name() -> None:
    """'All of the ability checks can be increased by gaining the skills of the same name,
    however it is not required in order to play the game.'"""
    assert target(check_spec(check(check="concentrate", ability=5))) == 5
    assert target(check_spec(check(check="concentrate", ability=5, skill=2))) == 7


@pytest.mark.parametrize(
    ("pounds", "rounding", "difficulty"),
    [(0, "down", 0), (99, "down", 0), (250, "down", 2), (250, "up", 3), (300, "up", 3)],
)
def test_lift_difficulty_is_one_point_per_hundred_pounds(
    pounds: float, rounding: str, difficulty: int
) -> None:
    """'Difficulty for a lift is calculated at a rate of one point per 100 pounds of weight
    being lifted.'"""
    rules = HazeRules(per_unit_rounding=rounding)  # type: ignore[arg-type]
    lift = check(check="lift", ability=6, weight_lb=pounds, rules=rules)
    assert check_spec(lift).difficulty == difficulty


def test_vault_difficulty_is_one_point_per_foot() -> None:
    """'Difficulty is determined at a rate of one point per foot of height being cleared.'"""
    assert check_spec(check(check="vault", ability=6, height_ft=3.5)).difficulty == 3
    up = HazeRules(per_unit_rounding="up")
    assert check_spec(check(check="vault", ability=6, height_ft=3.5, rules=up)).difficulty == 4
    with_gm = check(check="vault", ability=6, height_ft=2, difficulty=1)
    assert check_spec(with_gm).difficulty == 3


@pytest.mark.parametrize(
    ("example", "difficulty"),
    [("crush_can", 1), ("snap_neck", 3), ("regular_door", 4), ("exterior_door", 7),
     ("support_pillar", 10)],
)  # fmt: skip
def test_smash_takes_the_texts_example_difficulties(example: str, difficulty: int) -> None:
    """'crushing a can 1, snapping a captives neck 3, kicking in a regular door 4, kicking in
    an exterior door 7, tearing down a structural support pillar 10.'"""
    assert check_spec(check(check="smash", ability=6, example=example)).difficulty == difficulty


def test_smash_without_an_example_is_the_gms_difficulty() -> None:
    assert check_spec(check(check="smash", ability=6, difficulty=5)).difficulty == 5
    with pytest.raises(ValidationError, match="smash examples are"):
        check(check="smash", ability=6, example="wall")


def test_bracing_a_door_is_against_the_attackers_success_rate_and_may_hurt() -> None:
    """'holding a door closed while someone attempts to batter it down (Difficulty is equal
    to the attackers success rate)' ... 'each point of attacker success would equate a dice
    of damage.'"""
    door = check(check="brace", ability=7, example="door", attacker_success_rate=3)
    assert check_spec(door).difficulty == 3
    held = resolve_check_face(door, 1)  # 7 - 1 - 3 = 3
    assert held.outcome.success and held.damage_dice_up_to == 3
    with pytest.raises(ValidationError, match="attacker_success_rate"):
        check(check="brace", ability=7, example="door")
    with pytest.raises(ValidationError, match="attacker_success_rate"):
        check(check="brace", ability=7, example="spear", attacker_success_rate=2)


def test_bracing_a_spear_adds_damage_dice_and_a_hay_wagon_is_difficulty_ten() -> None:
    """'Success indicates a number of extra dice of damage to be dealt' ... 'placing yourself
    in the way of a runaway hay-wagon ... (difficulty 10)'."""
    spear = check(check="brace", ability=7, example="spear")
    assert resolve_check_face(spear, 2).extra_damage_dice == 5
    assert resolve_check_face(spear, 9).extra_damage_dice == 0  # a failure adds none
    wagon = check(check="brace", ability=10, skill=5, example="hay_wagon")
    assert check_spec(wagon).difficulty == 10


def test_dodging_reduces_the_attackers_hit_success_and_evades_below_it() -> None:
    """'Success at dodging reduces your opponents hitting success. If you reduce your
    attackers hit success to zero you completely evade the blow.'"""
    dodge = check(check="dodge", ability=7, attacker_success_rate=3)
    clean = resolve_check_face(dodge, 2)  # success rate 5
    assert (clean.attack_success_left, clean.evaded) == (0, True)
    graze = resolve_check_face(dodge, 6)  # success rate 1
    assert (graze.attack_success_left, graze.evaded) == (2, False)
    # Exactly to zero: the re-action tie setting decides, as for every re-action.
    tie = resolve_check_face(dodge, 4)  # success rate 3
    assert tie.attack_success_left == 0 and not tie.evaded
    strict = dodge.model_copy(update={"rules": HazeRules(reaction_tie="defender")})
    assert resolve_check_face(strict, 4).evaded


@pytest.mark.parametrize("name", ["leap", "balance"])
def test_leap_and_balance_take_the_gms_difficulty(name: str) -> None:
    """Leap: 'Difficulty is determined by' (the sentence stops there). Balance: 'Difficulty is
    calculated based on how much room for movement you have, and how much the environment is
    moving to thwart you.'"""
    assert check_spec(check(check=name, ability=6, difficulty=4)).difficulty == 4
    with pytest.raises(ValidationError, match="takes no height_ft"):
        check(check=name, ability=6, height_ft=3)


def test_each_point_of_success_counts_against_the_poisons_strength() -> None:
    """'each success counts against the strength of the poison, if you have more success
    points than the poison has strength then the poison is resisted.'"""
    poison = check(check="resist_poison", ability=6, poison_strength=2)
    more = resolve_check_face(poison, 3)  # 3 success points > 2
    assert (more.resisted, more.strength_left) == (True, 0)
    equal = resolve_check_face(poison, 4)  # 2 points: not more than the strength
    assert (equal.resisted, equal.strength_left) == (False, 0)
    some = resolve_check_face(poison, 5)  # 1 point
    assert (some.resisted, some.strength_left) == (False, 1)
    fumble = resolve_check_face(poison, 10)
    assert (fumble.resisted, fumble.strength_left) == (False, 2)


def test_resist_disease_is_checked_against_infectiousness() -> None:
    """'your resist roll is checked against the infectiousness of the disease.'"""
    disease = check(check="resist_disease", ability=6, infectiousness=2)
    assert check_spec(disease).difficulty == 2
    assert resolve_check_face(disease, 4).resisted  # 6 - 4 = 2: checked against 2
    assert not resolve_check_face(disease, 5).resisted


def test_resist_shock_reduces_the_penalties_for_a_round_by_the_success_rate() -> None:
    """'A resist shock roll can directly reduce these penalties for the duration of a round
    by a number equal to the success rate of a resist shock roll.'"""
    shock = check(check="resist_shock", ability=6, shock_penalty=3)
    steady = resolve_check_face(shock, 4)  # success rate 2
    assert (steady.penalty_reduction, steady.penalty_left) == (2, 1)
    assert resolve_check_face(shock, 1).penalty_left == 0
    assert resolve_check_face(shock, 9).penalty_reduction == 0


@pytest.mark.parametrize("name", ["powers_of_deduction", "insight"])
def test_deduction_and_insight_give_hints_on_success(name: str) -> None:
    """'the powers of deduction ability check gives hints to your player' and 'In game terms
    successful checks give hints when confronted with mental problems.'"""
    hunch = check(check=name, ability=5, difficulty=2)
    assert resolve_check_face(hunch, 3).hint is True
    assert resolve_check_face(hunch, 4).hint is False


def test_the_initiative_check_is_wits_plus_initiative() -> None:
    """'all players roll Wits plus the initiative skill (wits + initiative).'"""
    assert check_spec(check(check="initiative", ability=6, skill=2)) == initiative_spec(6, 2)


def test_befriending_gives_a_bonus_equal_to_the_success_rate() -> None:
    """'If you manage to befriend a creature then you gain a bonus equal to your success rate
    to all future social rolls involving that person'"""
    friend = check(check="befriend", ability=6, skill=1)
    assert resolve_check_face(friend, 3).social_bonus == 4
    assert resolve_check_face(friend, 8).social_bonus == 0


def test_befriending_a_creature_unlike_us_is_refused() -> None:
    """'You can attempt to befriend any creature you are capable of communicating with that
    is of human-like intelligence and similar culture.'"""
    with pytest.raises(CannotBefriend) as refused:
        roll_check(check(check="befriend", ability=6, human_like=False), seeded_rng("f"))
    assert refused.value.code == "cannot_befriend"


@pytest.mark.parametrize(
    ("name", "ability"),
    [("concentrate", "willpower"), ("anticipate", "wisdom"), ("remember", "wisdom"),
     ("sympathy", "empathy")],
)  # fmt: skip
def test_the_plain_checks_are_their_abilitys_roll_at_the_gms_difficulty(
    name: str, ability: str
) -> None:
    """Concentrate (Willpower), Anticipate and Remember (Wisdom), Sympathy (Empathy)."""
    plain = check(check=name, ability=6, difficulty=2)
    result = resolve_check_face(plain, 4)
    assert (result.ability, result.difficulty, result.outcome.success) == (ability, 2, True)
    assert result.meaning == check_def(name).result  # type: ignore[arg-type]


def test_a_check_refuses_inputs_it_does_not_take_and_needs_its_own() -> None:
    with pytest.raises(ValidationError, match="lift needs weight_lb"):
        check(check="lift", ability=6)
    with pytest.raises(ValidationError, match="takes no poison_strength"):
        check(check="lift", ability=6, weight_lb=100, poison_strength=2)
    with pytest.raises(ValidationError, match="may not exceed 100"):
        check(check="lift", ability=6, weight_lb=10_000, difficulty=5)


@given(
    ability=st.integers(1, 10),
    skill=st.integers(0, 5),
    gm=st.integers(0, 5),
    strength=st.integers(0, 12),
    modifier=st.integers(-5, 5),
)
def test_the_chance_to_resist_a_poison_counts_the_faces_that_beat_its_strength(
    ability: int, skill: int, gm: int, strength: int, modifier: int
) -> None:
    """'if you have more success points than the poison has strength then the poison is
    resisted' — P(resist) = #{faces 1..9 : ability + skill + modifier − face − GM > strength}/10
    (a 10 fumbles and fails)."""
    poison = check(check="resist_poison", ability=ability, skill=skill, difficulty=gm,
                   poison_strength=strength, modifier=modifier)  # fmt: skip
    faces = sum(1 for f in range(1, 10) if ability + skill + modifier - f - gm > strength)
    rolled = roll_check(poison, seeded_rng("p"))
    assert rolled.success_chance == Fraction(faces, 10)
    assert rolled.resisted == (rolled.outcome.roll != 10 and rolled.outcome.margin - gm > strength)
