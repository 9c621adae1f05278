"""GraphQL: MazePreset, MazeDefinitionIssue and MazeDefinitionReport."""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.scalars import JSON


@strawberry.type(description="A preset maze `createSession(preset:)` accepts.")
class MazePreset:
    name: str
    alias_of: str | None
    title: str
    variant: str
    dc: int
    definition: JSON

    @classmethod
    def from_domain(cls, preset: dict[str, Any]) -> MazePreset:
        """From `api.mazes.presets()`."""
        return cls(**preset)


@strawberry.type(description="One problem or warning of a definition: where, code, message.")
class MazeDefinitionIssue:
    field: str | None
    code: str
    message: str


@strawberry.type(
    description="A definition's check: `problems` are what createSession would refuse, "
    "`warnings` flag a maze nobody can win as written; `definition` normalised when valid."
)
class MazeDefinitionReport:
    valid: bool
    problems: list[MazeDefinitionIssue]
    warnings: list[MazeDefinitionIssue]
    definition: JSON | None

    @classmethod
    def from_domain(cls, report: dict[str, Any]) -> MazeDefinitionReport:
        """From `api.mazes.validate()`."""
        return cls(
            valid=report["valid"],
            problems=[MazeDefinitionIssue(**p) for p in report["problems"]],
            warnings=[MazeDefinitionIssue(**w) for w in report["warnings"]],
            definition=report["definition"],
        )
