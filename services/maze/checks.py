"""Skill checks: the die and modifier a check uses, rolling it, taking half, tokens, band."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from services.dice import Rng, roll
from services.maze.abilities import Ability, AnyDie
from services.maze.bands import BY_NAME, BandName, band_for, better_bands, tokens_awarded
from services.maze.catalog import Catalog
from services.maze.character import Character
from services.maze.effects import (
    Effect,
    active_effects,
    automatic_band,
    effect_die,
    effect_modifier,
)
from services.maze.errors import (
    HALF_BELOW_DC,
    HALF_NOT_ALLOWED,
    MISSING_ABILITY,
    TOKENS_NOT_ALLOWED,
    MazeError,
)
from services.maze.model import MazeModel
from services.maze.rules import DEFAULT_RULES, MazeRules
from services.maze.traits import CheckKind

Score = Annotated[int, Field(ge=-100, le=100)]
Tokens = Annotated[int, Field(ge=0, le=100)]
# Adversity tokens cannot be added to these (nor, for group, by allies).
NO_TOKENS = frozenset({CheckKind.SNAP, CheckKind.LOOT, CheckKind.GROUP})
# "On normal rolls and damage rolls, a player can choose to take half."
HALF_KINDS = frozenset({CheckKind.NORMAL, CheckKind.DAMAGE})


class CheckSpec(MazeModel):
    """What a check rolls after traits and effects: die, modifier, DC, or a set band."""

    die: AnyDie
    modifier: Score
    dc: Score = 0
    kind: CheckKind = CheckKind.NORMAL
    ability: Ability = Ability.READY
    automatic: BandName | None = None


class Throw(MazeModel):
    """One throw of the check die (explosions are further throws)."""

    face: int
    value: int
    flags: tuple[str, ...]


class Reach(MazeModel):
    """A better band and the fewest adversity tokens that reach it."""

    band: BandName
    tokens: int


class CheckOutcome(MazeModel):
    """A resolved check: score (die + modifier or half), tokens spent, total and band.

    `total` is DC + `margin`, the total the band is read from: score + tokens for a roll;
    for a taken half, the margin its level counts as (`half_margin`) plus the tokens.
    """

    spec: CheckSpec
    rolled: bool
    took_half: bool
    dice: tuple[Throw, ...]
    score: int | None
    tokens_spent: int
    total: int | None
    margin: int | None
    band: BandName
    success: bool
    tokens_awarded: int
    reach: tuple[Reach, ...]


def build_check(
    die: AnyDie,
    modifier: int,
    ability: Ability,
    dc: int = 0,
    kind: CheckKind = CheckKind.NORMAL,
    effects: frozenset[Effect] = frozenset(),
    immunities: frozenset[Effect] = frozenset(),
    checked_this_run: frozenset[Ability] = frozenset(),
    claim_tunnel_vision: bool = True,
) -> CheckSpec:
    """Apply effects to a die and modifier: Fear, Exhaustion, Tunnel-vision, Contentment."""
    active = active_effects(effects, immunities)
    auto = None
    if kind is not CheckKind.DAMAGE:
        auto = automatic_band(active, ability, checked_this_run, claim_tunnel_vision)
    return CheckSpec(
        die=effect_die(active, ability, die),  # type: ignore[arg-type]
        modifier=effect_modifier(active, ability, modifier),
        dc=dc,
        kind=kind,
        ability=ability,
        automatic=auto,
    )


def check_for(
    character: Character,
    skill: str,
    catalog: Catalog,
    dc: int = 0,
    kind: CheckKind = CheckKind.NORMAL,
    claim_tunnel_vision: bool = True,
) -> CheckSpec:
    """A character's check with a skill: ability die, skill and trait modifiers, effects."""
    ability = catalog.skill(skill).ability
    if ability not in character.abilities:
        raise MazeError(
            f"{character.name} has no die for {ability.value}, which {skill} uses",
            code=MISSING_ABILITY,
        )
    die: int = character.abilities[ability]
    modifier = character.skills.get(skill, 0)
    immunities: set[Effect] = set()
    for name in character.traits:
        for effect in catalog.trait(name).effects():
            modifier += effect.skill_modifiers.get(skill, 0)
            modifier += effect.check_modifiers.get(kind, 0)
            if kind is CheckKind.LOOT:
                modifier += effect.luck  # "Any trait that refers to luck"
            die = effect.die_changes.get(ability, die)
            immunities |= effect.immunities
    return build_check(
        die,  # type: ignore[arg-type]
        modifier,
        ability,
        dc,
        kind,
        character.effects,
        frozenset(immunities),
        character.checked_this_run,
        claim_tunnel_vision,
    )


def half_score(spec: CheckSpec) -> int:
    """Half the die plus the modifier (every ability die has an even number of faces)."""
    return spec.die // 2 + spec.modifier


def half_band(spec: CheckSpec, rules: MazeRules = DEFAULT_RULES) -> BandName:
    """The level taking half gives (rules.half_level; by default the chart's Success)."""
    return band_for(half_margin(spec, rules)).name


def half_margin(spec: CheckSpec, rules: MazeRules = DEFAULT_RULES) -> int:
    """The margin a taken half counts as before tokens: its own, moved to the nearest
    margin of the level the rules give it.

    Tokens then add one point each to this margin, so "a token is worth one point" holds
    after taking half too: d12+6 vs DC 3 (half 12, 9 over) counts as a Success at 4 over,
    and one token makes it a Major success at 5 over, never an Incredible one.
    """
    margin = half_score(spec) - spec.dc
    if rules.half_level == "margin":
        return margin
    level = BY_NAME[
        BandName.SMALL_SUCCESS if rules.half_level == "small_success" else BandName.SUCCESS
    ]
    assert level.low is not None and level.high is not None
    return min(max(margin, level.low), level.high)


def roll_die(spec: CheckSpec, rng: Rng) -> tuple[int, tuple[Throw, ...]]:
    """Roll the exploding die once and add the modifier once: (score, throws)."""
    result = roll(f"1d{spec.die}!{spec.modifier:+d}", rng)
    throws = tuple(Throw(face=d.face, value=d.value, flags=d.flag_names) for d in result.dice)
    return result.total, throws


def check_tokens(kind: CheckKind, tokens: int) -> None:
    """Refuse tokens on snap, loot and group checks."""
    if tokens and kind in NO_TOKENS:
        raise MazeError(
            f"adversity tokens cannot be applied to a {kind.value} check",
            code=TOKENS_NOT_ALLOWED,
        )


def check_half(spec: CheckSpec) -> None:
    """Refuse taking half on other checks than normal and damage ones, or below the DC."""
    if spec.kind not in HALF_KINDS:
        raise MazeError(
            f"taking half is only for normal and damage rolls, not {spec.kind.value}",
            code=HALF_NOT_ALLOWED,
        )
    if spec.kind is CheckKind.NORMAL and half_score(spec) < spec.dc:
        raise MazeError(
            f"half the die plus the modifier ({half_score(spec)}) is below the DC ({spec.dc})",
            code=HALF_BELOW_DC,
        )


def resolve_check(
    spec: CheckSpec,
    rng: Rng,
    tokens: int = 0,
    take_half: bool = False,
    rules: MazeRules = DEFAULT_RULES,
) -> CheckOutcome:
    """Resolve a check against its DC: roll (or take half, or a set band), then tokens."""
    check_tokens(spec.kind, tokens)
    if spec.automatic is not None:
        band = spec.automatic
        if tokens:
            raise MazeError(
                f"the check is an automatic {band.value}: there is no total to add tokens to",
                code=TOKENS_NOT_ALLOWED,
            )
        if take_half:
            raise MazeError(
                f"the check is an automatic {band.value}: there is no die to take half of",
                code=HALF_NOT_ALLOWED,
            )
        return CheckOutcome(
            spec=spec,
            rolled=False,
            took_half=False,
            dice=(),
            score=None,
            tokens_spent=0,
            total=None,
            margin=None,
            band=band,
            success=band_for_success(band),
            tokens_awarded=tokens_awarded(band),
            reach=(),
        )
    dice: tuple[Throw, ...] = ()
    if take_half:
        check_half(spec)
        score = half_score(spec)
        # The half counts as the level the rules give it; tokens add to that margin.
        before = half_margin(spec, rules)
    else:
        score, dice = roll_die(spec, rng)
        before = score - spec.dc
    margin = before + tokens
    total = spec.dc + margin
    band = band_for(margin).name
    reach: tuple[Reach, ...] = ()
    if spec.kind not in NO_TOKENS:
        reach = tuple(Reach(band=b.name, tokens=n) for b, n in better_bands(before))
    return CheckOutcome(
        spec=spec,
        rolled=not take_half,
        took_half=take_half,
        dice=dice,
        score=score,
        tokens_spent=tokens,
        total=total,
        margin=margin,
        band=band,
        success=band_for_success(band),
        tokens_awarded=tokens_awarded(band),
        reach=reach,
    )


def band_for_success(band: BandName) -> bool:
    """Whether a band is a success (Small success and better)."""
    return band in (
        BandName.INCREDIBLE_SUCCESS,
        BandName.MAJOR_SUCCESS,
        BandName.SUCCESS,
        BandName.SMALL_SUCCESS,
    )
