"""GraphQL: HazeComplexAction, a complex action after one more round."""

from __future__ import annotations

import strawberry

from api.graphql.haze.action_result import HazeActionResult
from services.haze import RoundResult


@strawberry.type(description="A complex action after a round: total, status, points, rolls.")
class HazeComplexAction:
    difficulty: int
    total: int
    rounds: int
    remaining: int
    status: str = strawberry.field(
        description="in_progress, completed, fumbled, exhausted or given_up."
    )
    points: list[int] = strawberry.field(description="Each participant's points left.")
    rolls: list[HazeActionResult | None] = strawberry.field(
        description="Each participant's roll this round; null when it could not pay."
    )
    seed: str

    @classmethod
    def from_domain(cls, result: RoundResult, seed: str) -> HazeComplexAction:
        """Copy a played round."""
        action = result.action
        return cls(
            difficulty=action.difficulty,
            total=action.total,
            rounds=action.rounds,
            remaining=action.remaining,
            status=action.status,
            points=[p.points for p in result.participants],
            rolls=[None if r is None else HazeActionResult.from_domain(r) for r in result.rolls],
            seed=seed,
        )
