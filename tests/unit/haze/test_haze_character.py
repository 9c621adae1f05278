"""Character sheets: skills with levels, tied to an ability."""

from __future__ import annotations

import pytest

from services.haze import Abilities, Character, Skill, skill_action, target, unskilled_action
from services.haze.errors import NoRelatedSkill, UnknownSkill

WARRIOR = Character(
    abilities=Abilities(
        strength=6,
        agility=6,
        constitution=5,
        willpower=4,
        wits=5,
        intelligence=4,
        wisdom=4,
        charisma=4,
        empathy=4,
    ),
    skills={"swordplay": Skill(ability="strength", level=2), "axe": Skill(ability="strength")},
)


def test_a_skill_is_used_with_its_ability() -> None:
    """'Skills ... are used in conjunction with abilities to determine if an AE can attempt
    a non-instinctive task.'"""
    assert target(skill_action(WARRIOR, "swordplay")) == 8


def test_an_unknown_skill_is_refused() -> None:
    """'An action can be attempted if the AE has the correct skill required.'"""
    with pytest.raises(UnknownSkill):
        skill_action(WARRIOR, "cryptography")


def test_a_related_skill_allows_an_unskilled_action() -> None:
    """'You could attempt to wield a sword if you had any other melee combat skill. You
    couldn't suddenly crack a code ... if you had no background in cryptography'"""
    assert target(unskilled_action(WARRIOR, "strength", "axe")) == 3
    with pytest.raises(NoRelatedSkill):
        unskilled_action(WARRIOR, "intelligence", "cryptography")
