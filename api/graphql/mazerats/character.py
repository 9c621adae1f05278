"""GraphQL: MazeRatsCharacter, a generated character sheet."""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from services.mazerats.character import Character


@strawberry.type(description="A generated character: key figures and the whole sheet as JSON.")
class MazeRatsCharacter:
    seed: str | None
    armor_class: int
    max_hp: int
    paths: list[str]
    items: list[str]
    sheet: JSON

    @classmethod
    def from_domain(cls, c: Character) -> MazeRatsCharacter:
        """Wrap a character sheet."""
        return cls(
            seed=c.seed,
            armor_class=c.armor_class,
            max_hp=c.max_hp,
            paths=[p.entry for p in c.paths],
            items=[i.entry for i in c.items],
            sheet=JSON(c.model_dump(mode="json")),
        )
