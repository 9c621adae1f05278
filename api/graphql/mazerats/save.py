"""GraphQL: MazeRatsSave, a rolled (or automatic) saving throw."""

from __future__ import annotations

import strawberry

from api.graphql.rolled import Rolled
from services.mazerats.saves import Save


@strawberry.type(description="A save: 2d6 + bonus, 9 or more succeeds; seed replays it.")
class MazeRatsSave(Rolled):
    dice: list[int]
    bonus: int
    total: int | None
    target: int
    success: bool
    automatic: bool
    seed: str

    @classmethod
    def from_domain(cls, save: Save, seed: str) -> MazeRatsSave:
        """Wrap a save and the seed that rolled it."""
        return cls(
            dice=list(save.dice),
            bonus=save.bonus,
            total=save.total,
            target=save.target,
            success=save.success,
            automatic=save.automatic,
            seed=seed,
        )
