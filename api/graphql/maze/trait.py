"""GraphQL: MazeTrait, a trait of the catalog."""

from __future__ import annotations

import strawberry

from services.maze.traits import Trait


@strawberry.type(description="A trait: kind, parent trait for subtraits, rules notes.")
class MazeTrait:
    name: str
    kind: str
    parent: str | None
    excludes: list[str]
    min_holders: int
    note: str

    @classmethod
    def from_domain(cls, trait: Trait) -> MazeTrait:
        """From the domain trait."""
        return cls(
            name=trait.name,
            kind=trait.kind.value,
            parent=trait.parent,
            excludes=sorted(trait.excludes),
            min_holders=trait.min_holders,
            note=trait.note,
        )
