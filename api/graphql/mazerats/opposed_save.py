"""GraphQL: MazeRatsOpposedSave, both totals of every exchange and the winner."""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from api.graphql.rolled import Rolled
from services.mazerats.opposed import OpposedSave


@strawberry.type(description="An opposed save: the winner, each exchange's dice and totals.")
class MazeRatsOpposedSave(Rolled):
    winner: str
    rounds: JSON
    seed: str

    @classmethod
    def from_domain(cls, result: OpposedSave, seed: str) -> MazeRatsOpposedSave:
        """Wrap an opposed save and its seed."""
        rounds = [r.model_dump(mode="json") for r in result.rounds]
        return cls(winner=result.winner, rounds=JSON(rounds), seed=seed)
