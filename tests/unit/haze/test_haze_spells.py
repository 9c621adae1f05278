"""Spells and prayers: their own skills, learned above their difficulty, cast against it."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from services.dice import seeded_rng
from services.haze.errors import SpellTooDifficult
from services.haze.spells import HazeCastRequest, HazeSpell, cast, cast_odds, cast_spec, learn

FIREBALL = HazeSpell(name="fireball", school="fire", difficulty=3)
BLESSING = HazeSpell(name="blessing", school="sun", difficulty=3, kind="prayer")


def test_a_spell_is_learned_only_with_a_school_score_higher_than_its_difficulty() -> None:
    """'Spells of a particular difficulty can only be learned by those who have a score in
    the school the spell is from that is higher than that spells difficulty.'"""
    learned = learn(FIREBALL, 4)
    assert (learned.level, learned.school_score) == (0, 4)
    with pytest.raises(SpellTooDifficult) as refused:
        learn(FIREBALL, 3)  # equal is not higher
    assert refused.value.code == "spell_too_difficult"
    assert "'fire'" in refused.value.message


def test_the_spell_difficulty_applies_to_the_action_roll() -> None:
    """'The spell difficulty also effects the action roll as one would normally expect.'
    and 'Spells are so hard to master that they are basically individual skills of their
    own.' — ability + the spell's level, less the spell's difficulty."""
    request = HazeCastRequest(spell=FIREBALL, school_score=5, ability=6, level=2)
    spec = cast_spec(request)
    assert (spec.ability, spec.skill, spec.difficulty) == (6, 2, 3)
    outcome = cast(request, seeded_rng("cast"))
    assert outcome.roll is not None
    assert outcome.success_rate == 8 - outcome.roll - 3
    assert outcome.success == (outcome.roll != 10 and outcome.success_rate >= 0)
    gm = HazeCastRequest(spell=FIREBALL, school_score=5, ability=6, level=2, difficulty=2)
    assert cast_spec(gm).difficulty == 5


def test_prayers_function_identically_to_spells() -> None:
    """'Prayers function identically to spells.'"""
    spell = HazeCastRequest(spell=FIREBALL, school_score=4, ability=6, level=1)
    prayer = HazeCastRequest(spell=BLESSING, school_score=4, ability=6, level=1)
    assert cast(spell, seeded_rng("s")) == cast(prayer, seeded_rng("s"))
    assert cast_odds(spell) == cast_odds(prayer)
    with pytest.raises(SpellTooDifficult, match="prayer"):
        learn(BLESSING, 2)


def test_a_spell_the_caster_could_not_have_learned_is_not_cast() -> None:
    """'can only be learned by those who have a score in the school ... higher than that
    spells difficulty'."""
    with pytest.raises(SpellTooDifficult):
        cast(HazeCastRequest(spell=FIREBALL, school_score=3, ability=9), seeded_rng("x"))


def test_the_whole_difficulty_stays_within_bounds() -> None:
    with pytest.raises(ValidationError, match="may not exceed 100"):
        HazeCastRequest(
            spell=HazeSpell(name="wish", school="void", difficulty=90),
            school_score=30, ability=9, difficulty=20,
        )  # fmt: skip


@given(
    ability=st.integers(1, 10),
    level=st.integers(0, 6),
    difficulty=st.integers(0, 12),
    gm=st.integers(0, 3),
)
def test_casting_odds_count_the_faces_that_beat_the_difficulty(
    ability: int, level: int, difficulty: int, gm: int
) -> None:
    """'The spell difficulty also effects the action roll' — P(success) = #{faces 1..9 :
    ability + level − face ≥ difficulty}/10 (a 10 always fails)."""
    spell = HazeSpell(name="s", school="x", difficulty=difficulty)
    request = HazeCastRequest(spell=spell, school_score=difficulty + 1, ability=ability,
                              level=level, difficulty=gm)  # fmt: skip
    faces = sum(1 for f in range(1, 10) if ability + level - f >= difficulty + gm)
    assert cast_odds(request).success == Fraction(faces, 10)
