"""Damage checks: die + Hardy, injury from the total, capped by untreated injuries."""

from __future__ import annotations

from fractions import Fraction

from services.dice import Rng
from services.maze.catalog import Catalog
from services.maze.character import Character
from services.maze.checks import CheckSpec, Throw, check_for, check_tokens, half_score, roll_die
from services.maze.effects import Effect, active_effects
from services.maze.exploding import p_at_least
from services.maze.injuries import (
    MIN_SCORE,
    ORDER,
    Injury,
    cap_for,
    injury_for,
    is_failed_damage_roll,
    needs_treatment,
    severity,
    untreated,
    worst,
)
from services.maze.model import MazeModel
from services.maze.traits import CheckKind

HARDY = "Hardy"


class DamageSpec(MazeModel):
    """A damage roll: the check's die and modifier (Hardy added) and the best injury."""

    check: CheckSpec
    cap: Injury = Injury.SCRATCH


class InjuryReach(MazeModel):
    """A better injury and the fewest adversity tokens that reach it."""

    injury: Injury
    tokens: int


class DamageOutcome(MazeModel):
    """A resolved damage roll and the injury it gives."""

    spec: DamageSpec
    took_half: bool
    dice: tuple[Throw, ...]
    score: int
    tokens_spent: int
    total: int
    rolled_injury: Injury
    injury: Injury
    capped: bool
    failed: bool
    needs_treatment: bool
    reach: tuple[InjuryReach, ...]


def damage_for(character: Character, catalog: Catalog, hardy: str = HARDY) -> DamageSpec:
    """A character's damage roll: Hardy's die and modifier, capped by injuries and effects."""
    check = check_for(character, hardy, catalog, kind=CheckKind.DAMAGE)
    tunnel = Effect.TUNNEL_VISION in active_effects(character.effects)
    return DamageSpec(check=check, cap=cap_for(untreated(character.injuries), tunnel))


def _reach(spec: DamageSpec, score: int) -> tuple[InjuryReach, ...]:
    now = severity(worst(injury_for(score), spec.cap))
    return tuple(
        InjuryReach(injury=i, tokens=MIN_SCORE[i] - score)
        for i in ORDER
        if now < severity(i) <= severity(spec.cap)
    )


def resolve_damage(
    spec: DamageSpec, rng: Rng, tokens: int = 0, take_half: bool = False
) -> DamageOutcome:
    """Roll (or take half), add tokens, read the injury table, apply the cap."""
    check_tokens(CheckKind.DAMAGE, tokens)
    dice: tuple[Throw, ...] = ()
    if take_half:
        score = half_score(spec.check)
    else:
        score, dice = roll_die(spec.check, rng)
    total = score + tokens
    rolled = injury_for(total)
    injury = worst(rolled, spec.cap)
    return DamageOutcome(
        spec=spec,
        took_half=take_half,
        dice=dice,
        score=score,
        tokens_spent=tokens,
        total=total,
        rolled_injury=rolled,
        injury=injury,
        capped=injury is not rolled,
        failed=is_failed_damage_roll(injury),
        needs_treatment=needs_treatment(injury),
        reach=_reach(spec, score),
    )


def damage_odds(spec: DamageSpec) -> dict[Injury, Fraction]:
    """P(each injury), exactly, with the cap applied (better results become the cap)."""
    check = spec.check
    at_least = {i: p_at_least(check.die, low - check.modifier) for i, low in MIN_SCORE.items()}
    at_least[Injury.FATAL] = Fraction(1)
    out: dict[Injury, Fraction] = {}
    for i, injury in enumerate(ORDER):
        nxt = ORDER[i + 1] if i + 1 < len(ORDER) else None
        out[injury] = at_least[injury] - (at_least[nxt] if nxt else Fraction(0))
    capped = sum((p for i, p in out.items() if severity(i) >= severity(spec.cap)), Fraction())
    return {
        i: (capped if i is spec.cap else p if severity(i) < severity(spec.cap) else Fraction(0))
        for i, p in out.items()
    }
