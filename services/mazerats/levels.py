"""XP and levels: the XP table, its level features, max HP and sigil slots by level."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from services.mazerats.errors import MazeRatsError

START_MAX_HP = 6
HP_PER_LEVEL = 2
START_COMBAT_BONUS = 1
START_SIGIL_SLOTS = 1
MAX_LEVEL = 10
MAX_SESSION_XP = 3
CLEVER_BONUS_XP = 1


class Feature(StrEnum):
    """What a level gives besides 2 max HP."""

    ABILITY = "ability_score_+1"
    ABILITY_OR_COMBAT = "ability_score_+1_or_combat_bonus_+1"
    SIGIL_SLOT = "additional_sigil_slot"
    ABILITY_AND_PATH = "ability_score_+1_and_second_path"


class Level(BaseModel):
    """One row of the XP table."""

    model_config = ConfigDict(frozen=True)

    level: int
    xp: int
    feature: Feature | None


# "XP LVL Level Features"; level 1 is where every character starts, at 0 XP.
XP_TABLE: tuple[Level, ...] = (
    Level(level=1, xp=0, feature=None),
    Level(level=2, xp=2, feature=Feature.ABILITY),
    Level(level=3, xp=6, feature=Feature.ABILITY_OR_COMBAT),
    Level(level=4, xp=12, feature=Feature.SIGIL_SLOT),
    Level(level=5, xp=20, feature=Feature.ABILITY_AND_PATH),
    Level(level=6, xp=30, feature=Feature.ABILITY_OR_COMBAT),
    Level(level=7, xp=42, feature=Feature.SIGIL_SLOT),
    Level(level=8, xp=56, feature=Feature.ABILITY),
    Level(level=9, xp=72, feature=Feature.ABILITY_OR_COMBAT),
    Level(level=10, xp=90, feature=Feature.SIGIL_SLOT),
)


def _check_level(level: int) -> None:
    if not 1 <= level <= MAX_LEVEL:
        raise MazeRatsError(f"level must be within 1..{MAX_LEVEL}", code="level_out_of_range")


def level_for_xp(xp: int) -> int:
    """The level a character with `xp` has reached."""
    if xp < 0:
        raise MazeRatsError("XP cannot be negative", code="xp_out_of_range")
    return max(row.level for row in XP_TABLE if row.xp <= xp)


def xp_for_level(level: int) -> int:
    """The XP needed to reach `level`."""
    _check_level(level)
    return XP_TABLE[level - 1].xp


def features_up_to(level: int) -> list[Feature]:
    """The features gained from level 2 up to `level`, in order."""
    _check_level(level)
    return [row.feature for row in XP_TABLE[1:level]]  # type: ignore[misc]


def max_hp(level: int) -> int:
    """6 at level 1, +2 for each level after."""
    _check_level(level)
    return START_MAX_HP + HP_PER_LEVEL * (level - 1)


def sigil_slots(level: int) -> int:
    """1 slot, +1 at each level whose feature is an additional sigil slot."""
    return START_SIGIL_SLOTS + features_up_to(level).count(Feature.SIGIL_SLOT)


def path_count(level: int) -> int:
    """One path; a second joins at level 5."""
    return 2 if Feature.ABILITY_AND_PATH in features_up_to(level) else 1


def session_xp(difficulty: int, survived: bool, clever: bool = False) -> int:
    """XP for a session: 1 to 3 by difficulty, +1 for clever play, none unless survived."""
    if not 1 <= difficulty <= MAX_SESSION_XP:
        raise MazeRatsError(f"session XP is 1 to {MAX_SESSION_XP}", code="session_xp_out_of_range")
    if not survived:
        return 0
    return difficulty + (CLEVER_BONUS_XP if clever else 0)
