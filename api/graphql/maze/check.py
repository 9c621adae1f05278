"""GraphQL: MazeCheck, a resolved skill check."""

from __future__ import annotations

import strawberry

from api.graphql.maze.reach import MazeReach
from api.graphql.maze.throw import MazeThrow
from api.graphql.rolled import Rolled
from services.maze.checks import CheckOutcome


@strawberry.type(description="A resolved check: dice, total, band, tokens awarded and needed.")
class MazeCheck(Rolled):
    seed: str
    die: int
    modifier: int
    dc: int
    kind: str
    automatic: str | None
    rolled: bool
    took_half: bool
    dice: list[MazeThrow]
    score: int | None
    tokens_spent: int
    total: int | None
    margin: int | None
    band: str
    success: bool
    tokens_awarded: int
    reach: list[MazeReach] = strawberry.field(
        description="Each better band and the fewest tokens (added to the score) to reach it."
    )

    @classmethod
    def from_domain(cls, outcome: CheckOutcome, seed: str) -> MazeCheck:
        """From the domain outcome and the seed it was rolled with."""
        spec = outcome.spec
        return cls(
            seed=seed,
            die=spec.die,
            modifier=spec.modifier,
            dc=spec.dc,
            kind=spec.kind.value,
            automatic=spec.automatic.value if spec.automatic else None,
            rolled=outcome.rolled,
            took_half=outcome.took_half,
            dice=[MazeThrow.from_domain(t) for t in outcome.dice],
            score=outcome.score,
            tokens_spent=outcome.tokens_spent,
            total=outcome.total,
            margin=outcome.margin,
            band=outcome.band.value,
            success=outcome.success,
            tokens_awarded=outcome.tokens_awarded,
            reach=[MazeReach.from_domain(r.band.value, r.tokens) for r in outcome.reach],
        )
