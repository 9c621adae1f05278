"""GraphQL: HazeCombatantInput, someone rolling initiative."""

from __future__ import annotations

from typing import Any

import strawberry


@strawberry.input(description="A combatant: name, wits (1–10) and initiative skill level.")
class HazeCombatantInput:
    name: str
    wits: int
    initiative: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The service's Combatant fields."""
        return {"name": self.name, "wits": self.wits, "initiative": self.initiative}
