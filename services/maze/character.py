"""Characters: ability dice, skill modifiers, traits, effects, injuries; and validation."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from services.maze.abilities import Ability, AbilityDie
from services.maze.effects import Effect
from services.maze.injuries import InjuryRecord
from services.maze.model import MazeModel
from services.maze.skills import Name
from services.maze.traits import Modifier


class Character(MazeModel):
    """A character sheet as the rules see it."""

    name: Name
    abilities: dict[Ability, AbilityDie]
    skills: dict[Name, Modifier] = Field(default_factory=dict, max_length=200)
    traits: Annotated[list[Name], Field(max_length=50)] = Field(default_factory=list)
    buddies: Annotated[list[Name], Field(max_length=16)] = Field(default_factory=list)
    effects: frozenset[Effect] = frozenset()
    injuries: tuple[InjuryRecord, ...] = ()
    checked_this_run: frozenset[Ability] = frozenset()
    is_pc: bool = True


class Issue(MazeModel):
    """One rule a character or party breaks: a stable code and a message."""

    code: str
    message: str
