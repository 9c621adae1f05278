"""GraphQL: the maze-definition queries."""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from api import mazes
from api.graphql.mazes.types import MazeDefinitionReport, MazePreset


@strawberry.type
class MazeDefinitionQuery:
    @strawberry.field(description="Every preset name createSession accepts, with its definition.")
    def maze_presets(self) -> list[MazePreset]:
        return [MazePreset.from_domain(p) for p in mazes.presets()]

    @strawberry.field(description="Check a custom maze definition (createSession's `definition`).")
    def validate_maze_definition(self, definition: JSON | None = None) -> MazeDefinitionReport:
        return MazeDefinitionReport.from_domain(mazes.validate(definition))
