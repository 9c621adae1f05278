"""GraphQL: HazeCheckEntry, one ability check of the catalogue."""

from __future__ import annotations

import strawberry

from services.haze.catalogue import CheckDef


@strawberry.type(description="A named difficulty the text gives as an example.")
class HazeCheckExample:
    name: str
    difficulty: int


@strawberry.type(description="An ability check: its ability, how difficulty is set, its meaning.")
class HazeCheckEntry:
    name: str
    ability: str
    difficulty: str = strawberry.field(description="How the check's difficulty is derived.")
    result: str = strawberry.field(description="What a success means.")
    quote: str = strawberry.field(description="The text's sentence the reading rests on.")
    inputs: list[str] = strawberry.field(description="The check's own inputs (snake_case).")
    required: list[str]
    examples: list[HazeCheckExample]

    @classmethod
    def from_domain(cls, entry: CheckDef) -> HazeCheckEntry:
        """Copy a catalogue entry."""
        return cls(
            name=entry.name,
            ability=entry.ability,
            difficulty=entry.difficulty,
            result=entry.result,
            quote=entry.quote,
            inputs=list(entry.inputs),
            required=list(entry.required),
            examples=[HazeCheckExample(name=n, difficulty=d) for n, d in entry.examples.items()],
        )
