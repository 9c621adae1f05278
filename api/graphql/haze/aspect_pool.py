"""GraphQL: HazeAspectPool, one aspect's exhaustion points."""

from __future__ import annotations

import strawberry

from services.haze import AspectPool


@strawberry.type(description="Exhaustion points of one aspect and what this round has cost.")
class HazeAspectPool:
    health: int
    points: int
    actions: int = strawberry.field(description="Actions taken this round.")
    spent: int = strawberry.field(description="Points spent this round.")
    next_cost: int
    can_act: bool

    @classmethod
    def from_domain(cls, pool: AspectPool) -> HazeAspectPool:
        """Copy a pool."""
        return cls(
            health=pool.health,
            points=pool.points,
            actions=pool.actions,
            spent=pool.spent,
            next_cost=pool.next_cost(),
            can_act=pool.can_act(),
        )
