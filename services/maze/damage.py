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
from services.maze.rules import DEFAULT_RULES, MazeRules
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
    tokens_awarded: int
    needs_treatment: bool
    reach: tuple[InjuryReach, ...]


class DamageHalf(MazeModel):
    """Taking half against rolling a damage roll, compared by injury level."""

    score: int
    injury: Injury
    p_roll_better: Fraction
    p_roll_same: Fraction
    p_roll_worse: Fraction
    beats_rolling: bool


class DamageOdds(MazeModel):
    """P(each injury), exactly, and how taking half compares with rolling."""

    injuries: dict[Injury, Fraction]
    half: DamageHalf


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


def damage_tokens(injury: Injury, rules: MazeRules = DEFAULT_RULES) -> int:
    """Tokens a failed damage roll awards: "If you fail a roll, you will be granted
    adversity token(s)". Damage rolls have no band, so the chart's 1, 1, 2 for its three
    failure levels is carried over to the three failing injuries: Serious 1, Grave 1,
    Fatal 2 (`rules.damage_tokens = "none"` awards nothing)."""
    if rules.damage_tokens == "none" or not is_failed_damage_roll(injury):
        return 0
    return 2 if injury is Injury.FATAL else 1


def resolve_damage(
    spec: DamageSpec,
    rng: Rng,
    tokens: int = 0,
    take_half: bool = False,
    rules: MazeRules = DEFAULT_RULES,
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
        tokens_awarded=damage_tokens(injury, rules),
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


def compare_half_damage(spec: DamageSpec, odds: dict[Injury, Fraction]) -> DamageHalf:
    """Taking half (always allowed on a damage roll: there is no DC) against rolling.

    The half's injury is read from the table and capped like a roll's. Taking half beats
    rolling when a roll is more likely to give a worse injury than a better one.
    """
    score = half_score(spec.check)
    injury = worst(injury_for(score), spec.cap)
    level = severity(injury)
    better = sum((p for i, p in odds.items() if severity(i) > level), Fraction())
    same = odds[injury]
    worse = 1 - better - same
    return DamageHalf(
        score=score,
        injury=injury,
        p_roll_better=better,
        p_roll_same=same,
        p_roll_worse=worse,
        beats_rolling=worse > better,
    )


def damage_odds_with_half(spec: DamageSpec) -> DamageOdds:
    """P(each injury) and the comparison of taking half with rolling."""
    injuries = damage_odds(spec)
    return DamageOdds(injuries=injuries, half=compare_half_damage(spec, injuries))
