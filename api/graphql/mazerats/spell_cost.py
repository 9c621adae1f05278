"""GraphQL: MazeRatsSpellCost, the HP a spell costs and how it adds up."""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from services.mazerats.spells import SpellCost


@strawberry.type(description="A spell's HP cost, tier, breakdown and corruption save.")
class MazeRatsSpellCost:
    cost: int
    tier: str
    within_guidelines: bool
    breakdown: JSON
    reach: str
    damage: int | None
    corruption_save: bool

    @classmethod
    def from_domain(cls, cost: SpellCost) -> MazeRatsSpellCost:
        """Wrap a priced spell."""
        return cls(
            cost=cost.cost,
            tier=cost.tier,
            within_guidelines=cost.within_guidelines,
            breakdown=JSON(dict(cost.breakdown)),
            reach=cost.reach.value,
            damage=cost.damage,
            corruption_save=cost.corruption_save,
        )
