"""MazeRules: the settings for everything the text leaves open (see docs/RULES.md (The Maze))."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from services.maze.model import MazeModel


class MazeLootClass(MazeModel):
    """A row of the loot chart: this class from `min_total` up to the next row."""

    name: str = Field(min_length=1, max_length=32)
    min_total: int = Field(ge=-100, le=1000)


LootClass = MazeLootClass  # the name the rules use; GraphQL and OpenAPI see MazeLootClass


DEFAULT_LOOT_CHART: tuple[LootClass, ...] = (
    LootClass(name="Common", min_total=-100),
    LootClass(name="Uncommon", min_total=5),
    LootClass(name="Rare", min_total=9),
    LootClass(name="Ultra", min_total=13),
    LootClass(name="Legendary", min_total=17),
)


class MazeHalfLevel(StrEnum):
    """What taking half counts as: its own margin, or at best a Small success or Success."""

    MARGIN = "margin"
    SMALL_SUCCESS = "small_success"
    SUCCESS = "success"


class MazeGroupMode(StrEnum):
    """How a group check is judged: the sum against the DC, or a majority of members."""

    SUM = "sum"
    MAJORITY = "majority"


class MazeDamageTokens(StrEnum):
    """Whether failed damage rolls award adversity tokens (the chart's) or none."""

    CHART = "chart"
    NONE = "none"


class MazeRules(MazeModel):
    """Table settings; the defaults are the readings documented in docs/RULES.md (The Maze)."""

    distinct_dice: bool = True
    half_level: MazeHalfLevel = MazeHalfLevel.SUCCESS
    group_mode: MazeGroupMode = MazeGroupMode.SUM
    runner_traits_at_creation: bool = False
    max_background_traits: int = Field(default=2, ge=0, le=10)
    max_personality_traits: int = Field(default=3, ge=0, le=10)
    loot_chart: tuple[LootClass, ...] = Field(
        default=DEFAULT_LOOT_CHART, min_length=1, max_length=20
    )
    # Failed damage rolls (Serious or worse) award tokens: "chart" mirrors the chart's
    # three failure levels (Serious 1, Grave 1, Fatal 2); "none" awards nothing.
    damage_tokens: MazeDamageTokens = MazeDamageTokens.CHART


DEFAULT_RULES = MazeRules()


def loot_class(chart: tuple[LootClass, ...], total: int) -> str:
    """The class of loot a total gives: the highest row whose minimum it reaches."""
    rows = sorted(chart, key=lambda r: r.min_total)
    found = rows[0].name
    for row in rows:
        if total >= row.min_total:
            found = row.name
    return found
