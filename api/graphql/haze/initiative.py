"""GraphQL: HazeInitiative, who reacts first and an ambush's first-round penalty."""

from __future__ import annotations

import strawberry

from api.graphql.haze.initiative_roll import HazeInitiativeRoll
from api.graphql.rolled import Rolled
from services.haze.initiative import InitiativeResult


@strawberry.type(description="Rolls; order as groups acting together; ambush penalty (else 0).")
class HazeInitiative(Rolled):
    rolls: list[HazeInitiativeRoll]
    order: list[list[str]]
    ambush: bool
    penalty: int
    seed: str

    @classmethod
    def from_domain(cls, result: InitiativeResult, seed: str) -> HazeInitiative:
        """Wrap the initiative of an action sequence."""
        return cls(
            rolls=[HazeInitiativeRoll.from_domain(r) for r in result.rolls],
            order=result.order,
            ambush=result.ambush,
            penalty=result.penalty,
            seed=seed,
        )
