"""GraphQL: MazeHalf, taking half compared with rolling."""

from __future__ import annotations

import strawberry

from api.graphql.chance import Chance
from services.maze.odds import HalfComparison


@strawberry.type(description="Taking half against rolling: the half's band and a roll's odds.")
class MazeHalf:
    allowed: bool
    score: int
    band: str | None
    beats_rolling: bool
    p_roll_better: Chance
    p_roll_same: Chance
    p_roll_worse: Chance

    @classmethod
    def from_domain(cls, half: HalfComparison) -> MazeHalf:
        """From the domain comparison."""
        return cls(
            allowed=half.allowed,
            score=half.score,
            band=half.band.value if half.band else None,
            beats_rolling=half.beats_rolling,
            p_roll_better=Chance.from_fraction(half.p_roll_better),
            p_roll_same=Chance.from_fraction(half.p_roll_same),
            p_roll_worse=Chance.from_fraction(half.p_roll_worse),
        )
