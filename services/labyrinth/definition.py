"""Maze definitions as data: DC, deck, pool, trap and monster tables, victory, rule variant."""

from __future__ import annotations

from itertools import pairwise
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from services.errors import field_error
from services.labyrinth.expressions import RolledTotal
from services.labyrinth.vocab import TrapEffect

Variant = Literal["v1", "v2"]
# A table row's faces lie within ±TABLE_FACES (far past any table die's), and a table has
# at most TABLE_ROWS rows: a row's range is checked arithmetically, never enumerated.
TABLE_FACES = 10_000
TABLE_ROWS = 1_000


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class DeckCounts(_Model):
    """How many cards of each kind."""

    right_path: int = Field(default=0, ge=0, le=200)
    dead_end: int = Field(default=0, ge=0, le=200)
    monster: int = Field(default=0, ge=0, le=200)
    trap: int = Field(default=0, ge=0, le=200)

    @property
    def total(self) -> int:
        """The number of cards."""
        return self.right_path + self.dead_end + self.monster + self.trap


class TrapEntry(_Model):
    """One row of a trap table: faces `low..high` of the table's die."""

    low: int = Field(ge=-TABLE_FACES, le=TABLE_FACES)
    high: int = Field(ge=-TABLE_FACES, le=TABLE_FACES)
    name: str = Field(min_length=1, max_length=100)
    dc_offset: int = Field(default=0, ge=-30, le=30)
    effect: TrapEffect = TrapEffect.CUSTOM
    text: str = Field(default="", max_length=1000)
    save_dc_offset: int = Field(default=2, ge=-30, le=30)
    damage: RolledTotal = "1d12"
    sleep_turns: int = Field(default=2, ge=0, le=20)
    monster_on_top: bool = False


class MonsterEntry(_Model):
    """One row of a monster table and the monster's initiative expression."""

    low: int = Field(ge=-TABLE_FACES, le=TABLE_FACES)
    high: int = Field(ge=-TABLE_FACES, le=TABLE_FACES)
    name: str = Field(min_length=1, max_length=100)
    initiative: RolledTotal = "1d20"


def _check_ranges(rows: list[tuple[int, int]]) -> None:
    """Each row's range is non-empty and no two overlap (sorted: no face is enumerated)."""
    for low, high in rows:
        if low > high:
            raise ValueError(f"range {low}-{high} is empty")
    ordered = sorted(rows)
    for (_, high), (low, next_high) in pairwise(ordered):
        if low <= high:
            raise ValueError(f"range {low}-{next_high} overlaps another row")


class TrapTable(_Model):
    """The die rolled and its rows; a roll outside every row takes the nearest row."""

    die: RolledTotal = "1d6"
    entries: tuple[TrapEntry, ...] = Field(min_length=1, max_length=TABLE_ROWS)

    @model_validator(mode="after")
    def _ranges(self) -> Self:
        _check_ranges([(e.low, e.high) for e in self.entries])
        return self


class MonsterTable(_Model):
    """The die rolled for the monster met in an encounter and its rows."""

    die: RolledTotal = "1d6"
    entries: tuple[MonsterEntry, ...] = Field(min_length=1, max_length=TABLE_ROWS)

    @model_validator(mode="after")
    def _ranges(self) -> Self:
        _check_ranges([(e.low, e.high) for e in self.entries])
        return self


class Victory(_Model):
    """Escape on `right_paths` Right Paths, and/or by killing the monster."""

    right_paths: int | None = Field(default=5, ge=1, le=200)
    kill_monster: bool = False

    @model_validator(mode="after")
    def _some_way_out(self) -> Self:
        if self.right_paths is None and not self.kill_monster:
            raise ValueError("a victory condition needs right_paths or kill_monster")
        return self


class Settings(_Model):
    """Table options where the texts disagree; None takes the variant's default (RULES.md)."""

    deal_timing: Literal["turn", "round"] = "turn"
    overflow_monster_to: Literal["discard", "deck"] | None = None
    dead_ends_removed_to: Literal["discard", "game"] = "game"
    monster_removed_from: Literal["deck", "revealed"] | None = None
    failed_action_locks: bool = False
    monster_points_reset: bool = True
    monster_points_for_encounter: int = Field(default=2, ge=1, le=20)
    remove_actions_for_large_party: bool | None = None
    action_removal_roll: Literal["reroll", "as_printed"] = "reroll"


class MazeDefinition(_Model):
    """A maze: its DC, rule variant, deck (counts or `standard26`), pool, tables and victory."""

    name: str = Field(min_length=1, max_length=100)
    dc: int = Field(ge=1, le=60)
    variant: Variant = "v2"
    deck: DeckCounts | Literal["standard26"]
    pool: DeckCounts | Literal["other_half"] | None = None
    trap_table: TrapTable
    monster_table: MonsterTable
    victory: Victory = Field(default_factory=Victory)
    settings: Settings = Field(default_factory=Settings)

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        size = 26 if self.deck == "standard26" else self.deck.total
        if size < 3:
            raise field_error("deck", "a deck needs at least 3 cards to fill the river")
        if self.pool == "other_half" and self.deck != "standard26":
            raise field_error("pool", "pool 'other_half' needs the standard26 deck")
        return self

    @property
    def overflow_monster_to(self) -> Literal["discard", "deck"]:
        """Where the Monster card added by a river full of Dead Ends goes."""
        default: Literal["discard", "deck"] = "discard" if self.variant == "v1" else "deck"
        return self.settings.overflow_monster_to or default

    @property
    def monster_removed_from(self) -> Literal["deck", "revealed"]:
        """Which Monster card leaves the game after a defeated monster."""
        default: Literal["deck", "revealed"] = "deck" if self.variant == "v1" else "revealed"
        return self.settings.monster_removed_from or default

    @property
    def remove_actions_for_large_party(self) -> bool:
        """Whether parties of 4 and 5 roll to remove actions (v1 prints it, v2 does not)."""
        chosen = self.settings.remove_actions_for_large_party
        return self.variant == "v1" if chosen is None else chosen


# Extra cards outside the game when a counts deck gives no pool (docs/RULES.md).
DEFAULT_POOL = DeckCounts(right_path=10, dead_end=10, monster=10, trap=0)
