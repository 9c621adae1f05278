"""Opposed rolls: higher total wins; PC vs NPC ties go to the PC, PC vs PC ties re-roll."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pydantic import model_validator

from services.dice import Rng
from services.maze.abilities import Ability, AnyDie
from services.maze.checks import (
    CheckSpec,
    Score,
    Throw,
    Tokens,
    build_check,
    half_score,
    roll_die,
)
from services.maze.effects import Effect
from services.maze.errors import AUTOMATIC_OUTCOME, REROLL_LIMIT, MazeError
from services.maze.exploding import p_at_least, p_difference_at_least
from services.maze.model import MazeModel

MAX_REROLLS = 1000


class MazeSide(MazeModel):
    """One side of an opposed roll; `total` set means it is already known (rolled).

    An opposed roll is a normal roll, so a side may take half (its total is then fixed:
    half the die + modifier), spend adversity tokens (one point each, added to every
    round's total) and carry effects (Fear, Exhaustion change its die and modifier).
    """

    die: AnyDie = 10
    modifier: Score = 0
    is_pc: bool = True
    total: Score | None = None
    tokens: Tokens = 0
    take_half: bool = False
    ability: Ability = Ability.READY
    effects: frozenset[Effect] = frozenset()
    checked_this_run: frozenset[Ability] = frozenset()

    @model_validator(mode="after")
    def _one_total(self) -> Side:
        if self.take_half and self.total is not None:
            raise ValueError("give either a known total or take_half, not both")
        return self


Side = MazeSide  # the name the rules use; GraphQL and OpenAPI see MazeSide


@dataclass(frozen=True, slots=True)
class Contestant:
    """A side as it rolls: effects applied, tokens in the modifier, a half as a total."""

    die: int
    modifier: int
    is_pc: bool
    total: int | None


def contestant(side: Side) -> Contestant:
    """Apply the side's effects, half and tokens; an automatic outcome is refused.

    Tunnel-vision is not claimed (an opposed roll has no DC to pass); Contentment's
    automatic Failure has no total to compare, so the GM rules that contest.
    """
    spec = build_check(
        side.die,
        side.modifier,
        side.ability,
        effects=side.effects,
        checked_this_run=side.checked_this_run,
        claim_tunnel_vision=False,
    )
    if spec.automatic is not None:
        raise MazeError(
            f"an effect makes this side an automatic {spec.automatic.value}: there is no "
            "total to compare",
            code=AUTOMATIC_OUTCOME,
        )
    total = half_score(spec) if side.take_half else side.total
    return Contestant(
        die=spec.die,
        modifier=spec.modifier + side.tokens,
        is_pc=side.is_pc,
        total=None if total is None else total + side.tokens,
    )


class OpposedOutcome(MazeModel):
    """Who won (0 for the first side, 1 for the second) and each round's totals."""

    winner: int
    rounds: tuple[tuple[int, int], ...]
    dice: tuple[tuple[Throw, ...], tuple[Throw, ...]]
    decided_by_tie_rule: bool


def _roll(side: Contestant, rng: Rng) -> tuple[int, tuple[Throw, ...]]:
    if side.total is not None:
        return side.total, ()
    score, throws = roll_die(CheckSpec(die=side.die, modifier=0), rng)  # type: ignore[arg-type]
    return score + side.modifier, throws


def resolve_opposed(first: Side, second: Side, rng: Rng) -> OpposedOutcome:
    """Roll both sides; a tie goes to the lone PC, otherwise both re-roll what they rolled."""
    a, b = contestant(first), contestant(second)
    rounds: list[tuple[int, int]] = []
    for _ in range(MAX_REROLLS):
        ta, da = _roll(a, rng)
        tb, db = _roll(b, rng)
        rounds.append((ta, tb))
        if ta != tb:
            return OpposedOutcome(
                winner=0 if ta > tb else 1,
                rounds=tuple(rounds),
                dice=(da, db),
                decided_by_tie_rule=False,
            )
        if a.is_pc != b.is_pc:
            return OpposedOutcome(
                winner=0 if a.is_pc else 1,
                rounds=tuple(rounds),
                dice=(da, db),
                decided_by_tie_rule=True,
            )
        if a.total is not None and b.total is not None:
            break
    raise MazeError("the tie could not be broken by re-rolling", code=REROLL_LIMIT)


class OpposedOdds(MazeModel):
    """P(each side wins) after the tie rule, and P(a round ties), all exact."""

    p_first_wins: Fraction
    p_second_wins: Fraction
    p_tie_per_round: Fraction


def _raw_odds(a: Contestant, b: Contestant) -> tuple[Fraction, Fraction, Fraction]:
    """(P(a > b), P(a = b), P(a < b)) for one round, before the tie rule, exactly."""
    if a.total is not None and b.total is not None:
        return (
            Fraction(int(a.total > b.total)),
            Fraction(int(a.total == b.total)),
            Fraction(int(a.total < b.total)),
        )
    if a.total is not None:
        lose, tie, win = _raw_odds(b, a)
        return win, tie, lose
    if b.total is not None:
        # Against a known total the closed form of one die is exact.
        need = b.total - a.modifier
        win = p_at_least(a.die, need + 1)
        tie = p_at_least(a.die, need) - win
        return win, tie, 1 - win - tie
    # Both roll: a − b > 0 ⇔ die_a − die_b ≥ b.modifier − a.modifier + 1.
    shift = b.modifier - a.modifier
    win = p_difference_at_least(a.die, b.die, shift + 1)
    tie = p_difference_at_least(a.die, b.die, shift) - win
    return win, tie, 1 - win - tie


def opposed_odds(first: Side, second: Side) -> OpposedOdds:
    """Each side's exact chance: ties go to the lone PC, otherwise the round is re-rolled
    (the chance is then the side's share of the decided rounds)."""
    a, b = contestant(first), contestant(second)
    win, tie, lose = _raw_odds(a, b)
    if a.is_pc != b.is_pc:
        win, lose = (win + tie, lose) if a.is_pc else (win, lose + tie)
    elif tie < 1:
        win, lose = win / (1 - tie), lose / (1 - tie)
    return OpposedOdds(p_first_wins=win, p_second_wins=lose, p_tie_per_round=tie)
