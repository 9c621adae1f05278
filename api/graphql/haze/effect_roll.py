"""GraphQL: HazeEffectRoll, rolled effect dice with every face thrown."""

from __future__ import annotations

import strawberry

from services.haze import EffectRoll


@strawberry.type(description="Effect dice as rolled: each 10 re-rolled and added.")
class HazeEffectRoll:
    dice: int
    expression: str
    faces: list[int]
    total: int

    @classmethod
    def from_domain(cls, effect: EffectRoll) -> HazeEffectRoll:
        """Copy a rolled effect."""
        return cls(
            dice=effect.dice, expression=effect.expression, faces=effect.faces, total=effect.total
        )
