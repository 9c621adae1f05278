"""GraphQL: MazeSkill, a skill of the catalog."""

from __future__ import annotations

import strawberry

from services.maze.skills import Skill


@strawberry.type(description="A skill and the ability whose die it rolls.")
class MazeSkill:
    name: str
    ability: str

    @classmethod
    def from_domain(cls, skill: Skill) -> MazeSkill:
        """From the domain skill."""
        return cls(name=skill.name, ability=skill.ability.value)
