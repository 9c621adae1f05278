"""GraphQL: maze definitions — the presets and checking a custom definition."""

from __future__ import annotations

from api.graphql.mazes.query import MazeDefinitionQuery

__all__ = ["MazeDefinitionQuery"]
