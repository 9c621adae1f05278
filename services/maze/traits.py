"""Traits as data: kind, parent (for subtraits) and effects for bonus and weakness."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import Field

from services.maze.abilities import Ability, AnyDie
from services.maze.effects import Effect
from services.maze.model import MazeModel
from services.maze.skills import Name

Modifier = Annotated[int, Field(ge=-20, le=20)]


class MazeTraitKind(StrEnum):
    """Where a trait comes from: chosen at creation or earned in play."""

    BACKGROUND = "background"
    PERSONALITY = "personality"
    RUNNER = "runner"
    CLEARING = "clearing"


TraitKind = MazeTraitKind  # the name the rules use; GraphQL and OpenAPI see MazeTraitKind


class MazeCheckKind(StrEnum):
    """The kinds of check the text distinguishes."""

    NORMAL = "normal"
    GROUP = "group"
    SNAP = "snap"
    LOOT = "loot"
    DAMAGE = "damage"


CheckKind = MazeCheckKind  # the name the rules use; GraphQL and OpenAPI see MazeCheckKind


class TraitEffect(MazeModel):
    """What a bonus or weakness does; empty by default (the text leaves them blank)."""

    skill_modifiers: dict[Name, Modifier] = Field(default_factory=dict)
    check_modifiers: dict[CheckKind, Modifier] = Field(default_factory=dict)
    die_changes: dict[Ability, AnyDie] = Field(default_factory=dict)
    immunities: frozenset[Effect] = frozenset()
    luck: Modifier = 0
    text: Annotated[str, Field(max_length=500)] = ""


class Trait(MazeModel):
    """A named trait; a runner subtrait names its main runner trait as `parent`."""

    name: Name
    kind: TraitKind
    parent: Name | None = None
    excludes: frozenset[Name] = frozenset()
    min_holders: Annotated[int, Field(ge=1, le=16)] = 1
    note: Annotated[str, Field(max_length=500)] = ""
    bonus: TraitEffect = TraitEffect()
    weakness: TraitEffect = TraitEffect()

    def effects(self) -> tuple[TraitEffect, TraitEffect]:
        """Bonus and weakness, which both apply."""
        return self.bonus, self.weakness
