"""Abilities: nine scores, three aspects × power, speed, toughness."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from services.haze import GRID, Abilities, aspect_of, health_ability, quality_of

NORMAL = dict.fromkeys(
    [
        "strength",
        "agility",
        "constitution",
        "willpower",
        "wits",
        "intelligence",
        "wisdom",
        "charisma",
        "empathy",
    ],
    5,
)


def test_there_are_nine_scores_named_as_the_table() -> None:
    """'Their are nine scores in all; power, speed and toughness for each of the body, mind
    and soul aspects.'"""
    assert GRID == {
        "body": {"power": "strength", "speed": "agility", "toughness": "constitution"},
        "mind": {"power": "willpower", "speed": "wits", "toughness": "intelligence"},
        "soul": {"power": "wisdom", "speed": "charisma", "toughness": "empathy"},
    }
    assert len(Abilities(**NORMAL).model_dump()) == 9


def test_each_ability_knows_its_aspect_and_quality() -> None:
    """'Each ability score represents either the power, speed or toughness of a single
    aspect of your AE.'"""
    assert (aspect_of("wits"), quality_of("wits")) == ("mind", "speed")
    assert (aspect_of("wisdom"), quality_of("wisdom")) == ("soul", "power")


def test_the_health_scores_are_constitution_intelligence_and_empathy() -> None:
    """'provided his health score (Constitution, Intelligence or Empathy) allows it.'"""
    assert [health_ability(a) for a in ("body", "mind", "soul")] == [
        "constitution",
        "intelligence",
        "empathy",
    ]
    sheet = Abilities(**{**NORMAL, "intelligence": 7})
    assert sheet.health("mind") == 7


@pytest.mark.parametrize("score", [0, 11])
def test_scores_outside_one_to_ten_are_refused(score: int) -> None:
    """'The ability scores are numbers ranging from 1 to 10 in humans'"""
    with pytest.raises(ValidationError):
        Abilities(**{**NORMAL, "strength": score})
