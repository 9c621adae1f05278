"""NPC reactions, morale and initiative: WIL saves and a coin for who acts first."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from services.dice import Rng, roll
from services.mazerats.errors import MazeRatsError
from services.mazerats.saves import MazeRatsSaveRoll, roll_save


class Reaction(BaseModel):
    """The party leader's WIL save against an NPC of unknown disposition."""

    model_config = ConfigDict(frozen=True)

    save: MazeRatsSaveRoll
    cooperative: bool


class MazeRatsMoraleCheck(BaseModel):
    """The NPC's WIL save and whether its morale holds (failing, it breaks)."""

    model_config = ConfigDict(frozen=True)

    save: MazeRatsSaveRoll
    holds: bool


class Side(StrEnum):
    """The two sides of a fight."""

    PARTY = "party"
    OPPONENTS = "opponents"


class Initiative(BaseModel):
    """Who acts first and why."""

    model_config = ConfigDict(frozen=True)

    first: Side
    by_surprise: bool


def roll_reaction(rng: Rng, leader_will: int = 0, path_covers: bool = False) -> Reaction:
    """The leader's WIL save: success means the NPC is cooperative."""
    save = roll_save(rng, leader_will, path_covers)
    return Reaction(save=save, cooperative=save.success)


def morale_check_due(
    *,
    leader_defeated: bool = False,
    group_size: int = 1,
    defeated: int = 0,
    max_hp: int = 1,
    hp: int = 1,
    unexpected_danger: bool = False,
) -> bool:
    """Whether an NPC faces more danger than expected, by the text's examples or a ruling."""
    half_group = group_size > 1 and 2 * defeated >= group_size
    half_hp = 2 * hp <= max_hp
    return leader_defeated or half_group or half_hp or unexpected_danger


def roll_morale(rng: Rng, will: int = 0) -> MazeRatsMoraleCheck:
    """The NPC's WIL save: failing it, the NPC flees or surrenders."""
    save = roll_save(rng, will)
    return MazeRatsMoraleCheck(save=save, holds=save.success)


def roll_initiative(rng: Rng, surprised: Side | None = None) -> Initiative:
    """A side that surprises the other acts first; otherwise a random side does."""
    if surprised is not None:
        other = Side.OPPONENTS if surprised is Side.PARTY else Side.PARTY
        return Initiative(first=other, by_surprise=True)
    # A d2 (one draw of below(2), as before): a die a VTT can show.
    first = (Side.PARTY, Side.OPPONENTS)[roll("1d2", rng).total - 1]
    return Initiative(first=first, by_surprise=False)


def surprised_skips_first_turn(rng: Rng, will: int = 0) -> tuple[MazeRatsSaveRoll, bool]:
    """A surprised character's WIL save: failing it, they skip their first turn."""
    save = roll_save(rng, will)
    return save, not save.success


class MazeRatsSurprisedSave(BaseModel):
    """A surprised character's WIL save; failing it skips the first turn."""

    model_config = ConfigDict(frozen=True)

    save: MazeRatsSaveRoll
    skips_first_turn: bool


class InitiativeOutcome(Initiative):
    """Who acts first, and each surprised character's save (none when nobody is surprised)."""

    surprised: tuple[MazeRatsSurprisedSave, ...]


def resolve_initiative(
    rng: Rng, surprised: Side | None = None, surprised_wills: Sequence[int] = ()
) -> InitiativeOutcome:
    """Initiative, then "Surprised characters that fail a WIL save skip their first turn."

    The WILs are those of the surprised side's characters, so they need a surprised side:
    without one nobody is surprised and giving WILs is refused (`nobody_surprised`)
    rather than answered with saves that mean nothing.
    """
    if surprised is None and surprised_wills:
        raise MazeRatsError(
            "surprised_wills are the WIL scores of the surprised side's characters, but no "
            "side is surprised (set `surprised`, or send no WILs)",
            code="nobody_surprised",
        )
    first = roll_initiative(rng, surprised)
    saves = []
    for will in surprised_wills:
        save, skips = surprised_skips_first_turn(rng, will)
        saves.append(MazeRatsSurprisedSave(save=save, skips_first_turn=skips))
    return InitiativeOutcome(
        first=first.first, by_surprise=first.by_surprise, surprised=tuple(saves)
    )
