"""The Maze use cases' results: every key an answer has, the same over REST and GraphQL.

Exact probabilities are `MazeChance`s (a fraction and its float); a probability per band,
injury or loot class is a list in the chart's order, never a map. Each model is built
from the domain's own outcome (`from_domain`), so the rules stay in services/maze.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict

from services.chance import Chance
from services.maze.abilities import AnyDie, MazeAbility
from services.maze.bands import MazeBand
from services.maze.character import Issue
from services.maze.checks import CheckOutcome, Throw
from services.maze.damage import DamageOdds, DamageOutcome
from services.maze.group import GroupOutcome
from services.maze.group_odds import GroupOdds
from services.maze.injuries import MazeInjury
from services.maze.loot import LootOutcome
from services.maze.odds import CheckOdds
from services.maze.opposed import OpposedOdds, OpposedOutcome
from services.maze.rules import MazeGroupMode
from services.maze.skills import Skill
from services.maze.traits import MazeCheckKind, MazeTraitKind, Trait


class MazeResult(BaseModel):
    """Base of the results: frozen, and every field typed (the API's `Result` contract)."""

    model_config = ConfigDict(frozen=True)


class DieFlag(StrEnum):
    """What happened to one throw of a check die (the dice engine's flags, GraphQL's
    `DieFlag`, in its order)."""

    EXPLODED = "exploded"
    REROLLED = "rerolled"
    DROPPED = "dropped"
    SUCCESS = "success"
    FAILURE = "failure"
    PENETRATED = "penetrated"
    COMPOUNDED = "compounded"
    CLAMPED = "clamped"


MazeChance = Chance  # the schema's one Chance type (services/chance.py)


class MazeThrow(MazeResult):
    """One throw of the check die; an explosion is a further throw."""

    face: int
    value: int
    flags: list[DieFlag]


class MazeCheckSpec(MazeResult):
    """The check as rolled, after traits and effects (`automatic`: an effect decided it)."""

    die: AnyDie
    modifier: int
    dc: int
    kind: MazeCheckKind
    ability: MazeAbility
    automatic: MazeBand | None


class MazeBandReach(MazeResult):
    """A better band and the fewest adversity tokens (added to the score) to reach it."""

    band: MazeBand
    tokens: int


class MazeCheck(MazeResult):
    """A resolved check: dice, total, band, tokens awarded and the tokens to better bands."""

    spec: MazeCheckSpec
    rolled: bool
    took_half: bool
    dice: list[MazeThrow]
    score: int | None
    tokens_spent: int
    total: int | None
    margin: int | None
    band: MazeBand
    success: bool
    tokens_awarded: int
    reach: list[MazeBandReach]
    seed: str


class MazeBandOdds(MazeResult):
    """The exact probability of one band."""

    band: MazeBand
    probability: MazeChance


class MazeHalf(MazeResult):
    """Taking half against rolling: the half's score and band, and a roll's odds."""

    allowed: bool
    score: int
    band: MazeBand | None
    beats_rolling: bool
    p_roll_better: MazeChance
    p_roll_same: MazeChance
    p_roll_worse: MazeChance


class MazeCheckOdds(MazeResult):
    """Exact P(success), P(each band, best first) and taking half against rolling."""

    spec: MazeCheckSpec
    success: MazeChance
    bands: list[MazeBandOdds]
    half: MazeHalf | None


class MazeDamageSpec(MazeResult):
    """A damage roll: the check (Hardy added) and the best injury it may give."""

    check: MazeCheckSpec
    cap: MazeInjury


class MazeInjuryReach(MazeResult):
    """A better injury and the fewest adversity tokens to reach it."""

    injury: MazeInjury
    tokens: int


class MazeInjuryOdds(MazeResult):
    """The exact probability of one injury."""

    injury: MazeInjury
    probability: MazeChance


class MazeDamageHalf(MazeResult):
    """Taking half on a damage roll against rolling, by injury."""

    score: int
    injury: MazeInjury
    beats_rolling: bool
    p_roll_better: MazeChance
    p_roll_same: MazeChance
    p_roll_worse: MazeChance


class MazeDamage(MazeResult):
    """A damage roll: total, injury (capped), each injury's odds, taking half or not."""

    spec: MazeDamageSpec
    took_half: bool
    dice: list[MazeThrow]
    score: int
    tokens_spent: int
    total: int
    rolled_injury: MazeInjury
    injury: MazeInjury
    capped: bool
    failed: bool
    tokens_awarded: int
    needs_treatment: bool
    reach: list[MazeInjuryReach]
    odds: list[MazeInjuryOdds]
    half: MazeDamageHalf
    seed: str


class MazeLoot(MazeResult):
    """A loot check: dice, total and the class of loot the chart gives."""

    dice: list[MazeThrow]
    total: int
    loot_class: str
    seed: str


class MazeLootClassOdds(MazeResult):
    """The exact probability of one class of loot."""

    loot_class: str
    probability: MazeChance


class MazeLootOdds(MazeResult):
    """The exact probability of each class of loot, in the chart's order."""

    classes: list[MazeLootClassOdds]


class MazeGroupOdds(MazeResult):
    """A group check's odds: within `error_bound` of exact (0: exact)."""

    mode: MazeGroupMode
    success: MazeChance
    bands: list[MazeBandOdds] | None
    exact: bool
    error_bound: MazeChance


class MazeGroup(MazeResult):
    """A group check: each member's dice and score, the group's result and its odds."""

    mode: MazeGroupMode
    scores: list[int]
    dice: list[list[MazeThrow]]
    total: int
    dc: int
    success: bool
    band: MazeBand | None
    tokens_awarded: list[int]
    odds: MazeGroupOdds
    seed: str


class MazeOpposedOdds(MazeResult):
    """Each side's exact chance to win, and of a tie in one round."""

    first_wins: MazeChance
    second_wins: MazeChance
    tie_per_round: MazeChance


class MazeOpposed(MazeResult):
    """An opposed roll: the winner (0 first, 1 second), each round's totals, the dice."""

    winner: int
    rounds: list[list[int]]
    dice: list[list[MazeThrow]]
    decided_by_tie_rule: bool
    odds: MazeOpposedOdds
    seed: str


class MazeIssue(MazeResult):
    """One rule a character or party breaks (a stable code and a message)."""

    code: str
    message: str


class MazeValidation(MazeResult):
    """Whether a character is valid, and every rule it (and its party) breaks."""

    valid: bool
    issues: list[MazeIssue]


class MazeSkill(MazeResult):
    """A skill and the ability whose die it rolls."""

    name: str
    ability: MazeAbility
    description: str


class MazeSkills(MazeResult):
    """The default skills."""

    skills: list[MazeSkill]


class MazeTrait(MazeResult):
    """A trait: kind, parent trait for subtraits, traits it excludes, rules notes."""

    name: str
    kind: MazeTraitKind
    parent: str | None
    excludes: list[str]
    min_holders: int
    note: str


class MazeTraits(MazeResult):
    """The default traits (their effects are neutral)."""

    traits: list[MazeTrait]


def _spec(spec: Any) -> dict[str, Any]:
    return {k: getattr(spec, k) for k in MazeCheckSpec.model_fields}


def _dice(throws: Iterable[Throw]) -> list[dict[str, Any]]:
    return [{"face": t.face, "value": t.value, "flags": list(t.flags)} for t in throws]


def _half(half: Any, **extra: Any) -> dict[str, Any]:
    odds = {k: MazeChance.of(getattr(half, k)) for k in ("p_roll_better", "p_roll_same")}
    return {
        **extra,
        **odds,
        "score": half.score,
        "beats_rolling": half.beats_rolling,
        "p_roll_worse": MazeChance.of(half.p_roll_worse),
    }


def check(outcome: CheckOutcome, seed: str) -> MazeCheck:
    """A rolled check's result."""
    return MazeCheck.model_validate(
        {
            **dict(outcome),
            "spec": _spec(outcome.spec),
            "dice": _dice(outcome.dice),
            "reach": [dict(r) for r in outcome.reach],
            "seed": seed,
        }
    )


def check_odds(odds: CheckOdds) -> MazeCheckOdds:
    """A check's exact odds."""
    half = odds.half
    return MazeCheckOdds(
        spec=MazeCheckSpec.model_validate(_spec(odds.spec)),
        success=MazeChance.of(odds.success),
        bands=band_odds(odds.bands),
        half=None
        if half is None
        else MazeHalf.model_validate(_half(half, allowed=half.allowed, band=half.band)),
    )


def band_odds(bands: dict[MazeBand, Fraction]) -> list[MazeBandOdds]:
    """P(each band) as a list, in the chart's order."""
    return [MazeBandOdds(band=b, probability=MazeChance.of(p)) for b, p in bands.items()]


def damage(outcome: DamageOutcome, odds: DamageOdds, seed: str) -> MazeDamage:
    """A damage roll's result, with the odds of each injury and of taking half."""
    injuries = [{"injury": i, "probability": MazeChance.of(p)} for i, p in odds.injuries.items()]
    return MazeDamage.model_validate(
        {
            **dict(outcome),
            "spec": {"check": _spec(outcome.spec.check), "cap": outcome.spec.cap},
            "dice": _dice(outcome.dice),
            "reach": [dict(r) for r in outcome.reach],
            "odds": injuries,
            "half": _half(odds.half, injury=odds.half.injury),
            "seed": seed,
        }
    )


def loot(outcome: LootOutcome, seed: str) -> MazeLoot:
    """A loot check's result."""
    return MazeLoot(
        dice=[MazeThrow.model_validate(t) for t in _dice(outcome.dice)],
        total=outcome.total,
        loot_class=outcome.loot_class,
        seed=seed,
    )


def loot_odds(odds: dict[str, Fraction]) -> MazeLootOdds:
    """P(each class of loot), in the chart's order."""
    return MazeLootOdds(
        classes=[
            MazeLootClassOdds(loot_class=name, probability=MazeChance.of(p))
            for name, p in odds.items()
        ]
    )


def group(outcome: GroupOutcome, odds: GroupOdds, seed: str) -> MazeGroup:
    """A group check's result, with the group's odds."""
    return MazeGroup.model_validate(
        {
            **dict(outcome),
            "dice": [_dice(d) for d in outcome.dice],
            "odds": {
                "mode": odds.mode,
                "success": MazeChance.of(odds.success),
                "bands": None if odds.bands is None else band_odds(odds.bands),
                "exact": odds.exact,
                "error_bound": MazeChance.of(odds.error_bound),
            },
            "seed": seed,
        }
    )


def opposed(outcome: OpposedOutcome, odds: OpposedOdds, seed: str) -> MazeOpposed:
    """An opposed roll's result, with each side's chances."""
    return MazeOpposed.model_validate(
        {
            "winner": outcome.winner,
            "rounds": [list(r) for r in outcome.rounds],
            "dice": [_dice(d) for d in outcome.dice],
            "decided_by_tie_rule": outcome.decided_by_tie_rule,
            "odds": {
                "first_wins": MazeChance.of(odds.p_first_wins),
                "second_wins": MazeChance.of(odds.p_second_wins),
                "tie_per_round": MazeChance.of(odds.p_tie_per_round),
            },
            "seed": seed,
        }
    )


def validation(issues: list[Issue]) -> MazeValidation:
    """A validation report."""
    return MazeValidation(
        valid=not issues, issues=[MazeIssue(code=i.code, message=i.message) for i in issues]
    )


def skills(found: Iterable[Skill]) -> MazeSkills:
    """The skills of a catalog."""
    return MazeSkills(
        skills=[MazeSkill(name=s.name, ability=s.ability, description=s.description) for s in found]
    )


def traits(found: Iterable[Trait]) -> MazeTraits:
    """The traits of a catalog."""
    return MazeTraits(
        traits=[
            MazeTrait.model_validate({**dict(t), "excludes": sorted(t.excludes)}) for t in found
        ]
    )
