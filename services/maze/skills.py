"""Skills: each tied to one ability; the default list ships as data."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from services.maze.abilities import Ability
from services.maze.model import MazeModel

Name = Annotated[str, Field(min_length=1, max_length=64)]


class Skill(MazeModel):
    """A skill: checks with it roll the die of its ability."""

    name: Name
    ability: Ability
    description: Annotated[str, Field(max_length=500)] = ""


def _skills(ability: Ability, *names: str) -> list[Skill]:
    return [Skill(name=n, ability=ability) for n in names]


# The text names Combat (Ready, example 4), Debate and Deceit (Interaction, examples 1
# and 2), Recall (Surroundings, example 3) and Hardy; the rest is our default list.
DEFAULT_SKILLS: tuple[Skill, ...] = (
    *_skills(Ability.READY, "Combat", "Hardy", "Athletics", "Reflexes", "Stealth"),
    *_skills(Ability.INTERACTION, "Debate", "Deceit", "Persuasion", "Intimidation", "Empathy"),
    *_skills(Ability.SURROUNDINGS, "Recall", "Perception", "Medicine", "Survival", "Scavenge"),
    *_skills(Ability.NAVIGATION, "Mapping", "Pathfinding", "Tracking", "Climbing", "Orientation"),
)
