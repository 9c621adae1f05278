"""GraphQL: MazeGroup, a group check, with the group's odds and their error bound."""

from __future__ import annotations

import strawberry

from api.graphql.chance import Chance
from api.graphql.maze.outcome_odds import MazeOutcomeOdds
from api.graphql.maze.throw import MazeThrow
from api.graphql.rolled import Rolled
from services.maze.group import GroupOutcome
from services.maze.group_odds import GroupOdds


@strawberry.type(description="A group check's odds: within errorBound of exact (0: exact).")
class MazeGroupOdds:
    mode: str
    success: Chance
    bands: list[MazeOutcomeOdds] | None
    exact: bool
    error_bound: Chance

    @classmethod
    def from_domain(cls, odds: GroupOdds) -> MazeGroupOdds:
        """From the domain odds."""
        return cls(
            mode=odds.mode,
            success=Chance.from_fraction(odds.success),
            bands=None
            if odds.bands is None
            else [MazeOutcomeOdds.from_domain(b.value, p) for b, p in odds.bands.items()],
            exact=odds.exact,
            error_bound=Chance.from_fraction(odds.error_bound),
        )


@strawberry.type(description="A group check: each member's score and the group's result.")
class MazeGroup(Rolled):
    seed: str
    mode: str
    scores: list[int]
    dice: list[list[MazeThrow]]
    total: int
    dc: int
    success: bool
    band: str | None
    tokens_awarded: list[int]
    odds: MazeGroupOdds

    @classmethod
    def from_domain(cls, outcome: GroupOutcome, odds: GroupOdds, seed: str) -> MazeGroup:
        """From the domain outcome, its odds and the seed."""
        return cls(
            seed=seed,
            mode=outcome.mode,
            scores=list(outcome.scores),
            dice=[[MazeThrow.from_domain(t) for t in d] for d in outcome.dice],
            total=outcome.total,
            dc=outcome.dc,
            success=outcome.success,
            band=outcome.band.value if outcome.band else None,
            tokens_awarded=list(outcome.tokens_awarded),
            odds=MazeGroupOdds.from_domain(odds),
        )
