"""Opposed saves: both sides roll a save, the higher total wins; ties per the chosen rule."""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict

from services.chance import Chance
from services.dice import Rng, roll
from services.markers import Named
from services.mazerats.twodsix import pmf

# A tie recurs with probability < 1/6 (146/1296 at equal bonuses); the bound is never
# reached in practice and keeps the function total. Past it the defender wins.
MAX_REROLLS = 100

OpposedSide = Annotated[Literal["attacker", "defender"], Named("MazeRatsOpposedSide")]


class TieRule(StrEnum):
    """'Defenders win ties, or the save is rerolled': the table picks one."""

    DEFENDER = "defender"
    REROLL = "reroll"


class MazeRatsOpposedRound(BaseModel):
    """One exchange of an opposed save: each side's dice and total."""

    model_config = ConfigDict(frozen=True)

    attacker_dice: tuple[int, ...]
    defender_dice: tuple[int, ...]
    attacker_total: int
    defender_total: int


class OpposedSave(BaseModel):
    """Every round rolled (more than one only when ties are rerolled) and the winner."""

    model_config = ConfigDict(frozen=True)

    rounds: tuple[MazeRatsOpposedRound, ...]
    winner: OpposedSide


class MazeRatsOpposedOdds(BaseModel):
    """Each side's exact chance to win one exchange, and a tie's."""

    model_config = ConfigDict(frozen=True)

    attacker: Chance
    defender: Chance
    tie: Chance


def _one(rng: Rng, bonus: int) -> tuple[tuple[int, ...], int]:
    result = roll(f"2d6{bonus:+d}", rng)
    return tuple(d.face for d in result.dice), result.total


def roll_opposed(
    rng: Rng, attacker_bonus: int, defender_bonus: int, ties: TieRule = TieRule.DEFENDER
) -> OpposedSave:
    """Roll an opposed save; the attacker must beat the defender's total."""
    rounds: list[MazeRatsOpposedRound] = []
    for _ in range(MAX_REROLLS + 1):
        a_dice, a = _one(rng, attacker_bonus)
        d_dice, d = _one(rng, defender_bonus)
        rounds.append(MazeRatsOpposedRound(attacker_dice=a_dice, defender_dice=d_dice,
                                           attacker_total=a, defender_total=d))  # fmt: skip
        if a != d or ties is TieRule.DEFENDER:
            break
    last = rounds[-1]
    winner: OpposedSide = "attacker" if last.attacker_total > last.defender_total else "defender"
    return OpposedSave(rounds=tuple(rounds), winner=winner)


def opposed_odds(
    attacker_bonus: int, defender_bonus: int, ties: TieRule = TieRule.DEFENDER
) -> MazeRatsOpposedOdds:
    """The exact probability that each side wins an opposed save."""
    a_pmf, d_pmf = pmf(attacker_bonus), pmf(defender_bonus)
    win = sum((pa * pd for a, pa in a_pmf.items() for d, pd in d_pmf.items() if a > d),
              Fraction(0))  # fmt: skip
    tie = sum((pa * d_pmf.get(a, Fraction(0)) for a, pa in a_pmf.items()), Fraction(0))
    if ties is TieRule.REROLL:
        win /= 1 - tie  # rerolling until the totals differ conditions on "not a tie"
    return MazeRatsOpposedOdds(
        attacker=Chance.of(win), defender=Chance.of(1 - win), tie=Chance.of(tie)
    )
