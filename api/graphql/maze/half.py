"""GraphQL: MazeHalf, taking half compared with rolling."""

from __future__ import annotations

import strawberry

from api.graphql.maze.probability import MazeProbability
from services.maze.odds import HalfComparison


@strawberry.type(description="Taking half against rolling: the half's band and a roll's odds.")
class MazeHalf:
    allowed: bool
    score: int
    band: str | None
    beats_rolling: bool
    p_roll_better: MazeProbability
    p_roll_same: MazeProbability
    p_roll_worse: MazeProbability

    @classmethod
    def from_domain(cls, half: HalfComparison) -> MazeHalf:
        """From the domain comparison."""
        return cls(
            allowed=half.allowed,
            score=half.score,
            band=half.band.value if half.band else None,
            beats_rolling=half.beats_rolling,
            p_roll_better=MazeProbability.from_domain(half.p_roll_better),
            p_roll_same=MazeProbability.from_domain(half.p_roll_same),
            p_roll_worse=MazeProbability.from_domain(half.p_roll_worse),
        )
