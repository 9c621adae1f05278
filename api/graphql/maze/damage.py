"""GraphQL: MazeDamage, a resolved damage roll and the odds of each injury."""

from __future__ import annotations

import strawberry

from api.graphql.chance import Chance
from api.graphql.maze.outcome_odds import MazeOutcomeOdds
from api.graphql.maze.reach import MazeReach
from api.graphql.maze.throw import MazeThrow
from api.graphql.rolled import Rolled
from services.maze.damage import DamageHalf, DamageOdds, DamageOutcome


@strawberry.type(description="Taking half on a damage roll against rolling, by injury level.")
class MazeDamageHalf:
    score: int
    injury: str
    beats_rolling: bool
    p_roll_better: Chance
    p_roll_same: Chance
    p_roll_worse: Chance

    @classmethod
    def from_domain(cls, half: DamageHalf) -> MazeDamageHalf:
        """From the domain comparison."""
        return cls(
            score=half.score,
            injury=half.injury.value,
            beats_rolling=half.beats_rolling,
            p_roll_better=Chance.from_fraction(half.p_roll_better),
            p_roll_same=Chance.from_fraction(half.p_roll_same),
            p_roll_worse=Chance.from_fraction(half.p_roll_worse),
        )


@strawberry.type(description="A damage roll: total, injury (capped), and each injury's odds.")
class MazeDamage(Rolled):
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
    tokens_awarded: int
    needs_treatment: bool
    reach: list[MazeReach]
    odds: list[MazeOutcomeOdds]
    half: MazeDamageHalf

    @classmethod
    def from_domain(cls, outcome: DamageOutcome, odds: DamageOdds, seed: str) -> MazeDamage:
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
            tokens_awarded=outcome.tokens_awarded,
            needs_treatment=outcome.needs_treatment,
            reach=[MazeReach.from_domain(r.injury.value, r.tokens) for r in outcome.reach],
            odds=[MazeOutcomeOdds.from_domain(i.value, p) for i, p in odds.injuries.items()],
            half=MazeDamageHalf.from_domain(odds.half),
        )
