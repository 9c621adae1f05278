"""GraphQL: HazeInitiativeRoll, one combatant's wits + initiative roll."""

from __future__ import annotations

import strawberry

from services.haze import InitiativeRoll


@strawberry.type(description="A combatant's initiative: the roll and its success rate.")
class HazeInitiativeRoll:
    name: str
    roll: int | None
    success_rate: int
    wits: int
    initiative: int

    @classmethod
    def from_domain(cls, r: InitiativeRoll) -> HazeInitiativeRoll:
        """Copy one roll."""
        return cls(
            name=r.name,
            roll=r.roll,
            success_rate=r.success_rate,
            wits=r.wits,
            initiative=r.initiative,
        )
