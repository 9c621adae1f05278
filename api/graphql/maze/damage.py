"""GraphQL: MazeDamage, a resolved damage roll and the odds of each injury."""

from __future__ import annotations

from fractions import Fraction

import strawberry

from api.graphql.maze.outcome_odds import MazeOutcomeOdds
from api.graphql.maze.reach import MazeReach
from api.graphql.maze.throw import MazeThrow
from services.maze.damage import DamageOutcome
from services.maze.injuries import Injury


@strawberry.type(description="A damage roll: total, injury (capped), and each injury's odds.")
class MazeDamage:
    seed: str
    die: int
    modifier: int
    cap: str
    took_half: bool
    dice: list[MazeThrow]
    score: int
    tokens_spent: int
    total: int
    rolled_injury: str
    injury: str
    capped: bool
    failed: bool
    needs_treatment: bool
    reach: list[MazeReach]
    odds: list[MazeOutcomeOdds]

    @classmethod
    def from_domain(
        cls, outcome: DamageOutcome, odds: dict[Injury, Fraction], seed: str
    ) -> MazeDamage:
        """From the domain outcome, the injury odds and the seed."""
        return cls(
            seed=seed,
            die=outcome.spec.check.die,
            modifier=outcome.spec.check.modifier,
            cap=outcome.spec.cap.value,
            took_half=outcome.took_half,
            dice=[MazeThrow.from_domain(t) for t in outcome.dice],
            score=outcome.score,
            tokens_spent=outcome.tokens_spent,
            total=outcome.total,
            rolled_injury=outcome.rolled_injury.value,
            injury=outcome.injury.value,
            capped=outcome.capped,
            failed=outcome.failed,
            needs_treatment=outcome.needs_treatment,
            reach=[MazeReach.from_domain(r.injury.value, r.tokens) for r in outcome.reach],
            odds=[MazeOutcomeOdds.from_domain(i.value, p) for i, p in odds.items()],
        )
