"""GraphQL: MazeOpposed, an opposed roll with the tie rules and each side's chances."""

from __future__ import annotations

import strawberry

from api.graphql.chance import Chance
from api.graphql.rolled import Rolled
from services.maze.opposed import OpposedOdds, OpposedOutcome


@strawberry.type(description="An opposed roll: winner (0 first, 1 second), rounds, chances.")
class MazeOpposed(Rolled):
    seed: str
    winner: int
    rounds: list[list[int]]
    decided_by_tie_rule: bool
    p_first_wins: Chance
    p_second_wins: Chance
    p_tie_per_round: Chance

    @classmethod
    def from_domain(cls, outcome: OpposedOutcome, odds: OpposedOdds, seed: str) -> MazeOpposed:
        """From the domain outcome, its odds and the seed."""
        return cls(
            seed=seed,
            winner=outcome.winner,
            rounds=[list(r) for r in outcome.rounds],
            decided_by_tie_rule=outcome.decided_by_tie_rule,
            p_first_wins=Chance.from_fraction(odds.p_first_wins),
            p_second_wins=Chance.from_fraction(odds.p_second_wins),
            p_tie_per_round=Chance.from_fraction(odds.p_tie_per_round),
        )
