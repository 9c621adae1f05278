"""Opposed rolls: higher total wins; PC vs NPC ties go to the PC, PC vs PC ties re-roll."""

from __future__ import annotations

from fractions import Fraction

from services.dice import Rng, probability
from services.maze.abilities import AnyDie
from services.maze.checks import CheckSpec, Score, Throw, roll_die
from services.maze.errors import REROLL_LIMIT, MazeError
from services.maze.exploding import p_at_least
from services.maze.model import MazeModel

MAX_REROLLS = 1000


class Side(MazeModel):
    """One side of an opposed roll; `total` set means it is already known (rolled, half)."""

    die: AnyDie = 10
    modifier: Score = 0
    is_pc: bool = True
    total: Score | None = None


class OpposedOutcome(MazeModel):
    """Who won (0 for the first side, 1 for the second) and each round's totals."""

    winner: int
    rounds: tuple[tuple[int, int], ...]
    dice: tuple[tuple[Throw, ...], tuple[Throw, ...]]
    decided_by_tie_rule: bool


def _roll(side: Side, rng: Rng) -> tuple[int, tuple[Throw, ...]]:
    if side.total is not None:
        return side.total, ()
    return roll_die(CheckSpec(die=side.die, modifier=side.modifier), rng)


def resolve_opposed(a: Side, b: Side, rng: Rng) -> OpposedOutcome:
    """Roll both sides; a tie goes to the lone PC, otherwise both re-roll what they rolled."""
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
    """P(first side wins) after the tie rule; exact unless error_bound is non-zero."""

    p_first_wins: Fraction
    p_second_wins: Fraction
    p_tie_per_round: Fraction
    error_bound: Fraction


def _term(side: Side) -> str:
    if side.total is not None:
        return str(side.total)
    return f"1d{side.die}!{side.modifier:+d}"


def _raw_odds(a: Side, b: Side) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """(P(a > b), P(a = b), P(a < b), error bound) before the tie rule."""
    if b.total is not None and a.total is None:
        # Against a known total the closed form is exact.
        need = b.total - a.modifier
        win = p_at_least(a.die, need + 1)
        tie = p_at_least(a.die, need) - win
        return win, tie, 1 - win - tie, Fraction(0)
    if a.total is not None and b.total is None:
        lose, tie, win, err = _raw_odds(b, a)
        return win, tie, lose, err
    report = probability(f"{_term(a)} >= {_term(b)}")
    assert report.check is not None
    margin = report.check.margin
    win = Fraction(sum(w for v, w in margin.pmf.items() if v > 0), margin.den)
    tie = Fraction(margin.pmf.get(0, 0), margin.den)
    lose = Fraction(sum(w for v, w in margin.pmf.items() if v < 0), margin.den)
    return win, tie, lose, Fraction(margin.tail, margin.den)


def opposed_odds(a: Side, b: Side) -> OpposedOdds:
    """The chances of each side: exact against a known total, else from the dice engine
    (two exploding dice: the unenumerated tail, ≤ 1e-12, is the stated error bound)."""
    win, tie, lose, error = _raw_odds(a, b)
    if a.is_pc != b.is_pc:
        win, lose = (win + tie, lose) if a.is_pc else (win, lose + tie)
    elif tie < 1:
        # Ties re-roll, so each side's chance is its share of the decided rounds.
        win, lose = win / (1 - tie), lose / (1 - tie)
    return OpposedOdds(p_first_wins=win, p_second_wins=lose, p_tie_per_round=tie, error_bound=error)
