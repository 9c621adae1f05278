"""Spells and prayers: each its own skill in a school, learned only above its difficulty."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from services.dice import Rng
from services.haze.abilities import Score
from services.haze.action import MAX_DIFFICULTY, ActionSpec, Difficulty, Level, Modifier
from services.haze.errors import SpellTooDifficult
from services.haze.odds import ActionOdds, action_odds
from services.haze.outcome import ActionOutcome, roll_action
from services.haze.rules import HazeRules
from services.markers import Named

Kind = Annotated[Literal["spell", "prayer"], Named("HazeSpellKind")]
Name = Annotated[str, Field(min_length=1, max_length=100)]


class HazeSpell(BaseModel):
    """A spell (or prayer): its name, the school (or faith) it belongs to, its difficulty."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    name: Name
    school: Name
    difficulty: Difficulty
    kind: Kind = "spell"


class HazeLearnRequest(BaseModel):
    """May an AE with this score in the spell's school learn it?"""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    spell: HazeSpell
    school_score: Level


class Learned(BaseModel):
    """A spell the AE may learn; it starts as a skill of level 0."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    spell: HazeSpell
    school_score: int
    level: int = 0


class HazeCastRequest(HazeLearnRequest):
    """Cast a known spell: the magickal ability score and the spell's own skill level."""

    ability: Score
    level: Level = 0
    difficulty: Difficulty = Field(default=0, description="The GM's, added to the spell's.")
    modifier: Modifier = 0
    effect_modifier: Modifier = 0
    rules: HazeRules = Field(default_factory=HazeRules)

    @model_validator(mode="after")
    def _within_bounds(self) -> HazeCastRequest:
        if self.spell.difficulty + self.difficulty > MAX_DIFFICULTY:
            raise ValueError(f"the whole difficulty may not exceed {MAX_DIFFICULTY}")
        return self


class HazeCastRollRequest(HazeCastRequest):
    """Cast a known spell or prayer: ability + the spell's level, its difficulty applied."""

    seed: Annotated[str, Field(min_length=1, max_length=256)] | None = None


def learn(spell: HazeSpell, school_score: int) -> Learned:
    """Allow learning only with a school score higher than the spell's difficulty."""
    if school_score <= spell.difficulty:
        raise SpellTooDifficult(
            f"a {spell.kind} of difficulty {spell.difficulty} needs a score in "
            f"{spell.school!r} above {spell.difficulty}, not {school_score}"
        )
    return Learned(spell=spell, school_score=school_score)


def cast_spec(req: HazeCastRequest) -> ActionSpec:
    """The casting roll: ability + the spell's level, its difficulty (plus the GM's) applied.

    A spell the AE could not have learned is refused rather than rolled.
    """
    learn(req.spell, req.school_score)
    return ActionSpec(
        ability=req.ability,
        skill=req.level,
        difficulty=req.spell.difficulty + req.difficulty,
        modifier=req.modifier,
        effect_modifier=req.effect_modifier,
    )


def cast(req: HazeCastRequest, rng: Rng) -> ActionOutcome:
    """Roll the casting through the Haze action roll."""
    return roll_action(cast_spec(req), rng, req.rules)


def cast_odds(req: HazeCastRequest) -> ActionOdds:
    """Exact odds of the casting roll."""
    return action_odds(cast_spec(req), req.rules)
