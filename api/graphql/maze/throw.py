"""GraphQL: MazeThrow, one throw of a check die."""

from __future__ import annotations

import strawberry

from services.maze.checks import Throw


@strawberry.type(description="One throw of the check die; an explosion is a further throw.")
class MazeThrow:
    face: int
    value: int
    flags: list[str]

    @classmethod
    def from_domain(cls, throw: Throw) -> MazeThrow:
        """From the domain throw."""
        return cls(face=throw.face, value=throw.value, flags=list(throw.flags))
