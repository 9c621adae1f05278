"""GraphQL: HazeComplexOdds, the exact law of how a complex action ends."""

from __future__ import annotations

import strawberry

from api.graphql.chance import Chance
from api.graphql.haze.round_odds import HazeRoundOdds
from services.haze.complex_odds import ComplexOdds


@strawberry.type(
    description="Exact P(done), P(fumbled), P(exhausted), P(given up at maxRounds), the law "
    "of the rounds played from the state given, and their mean (an exact rational)."
)
class HazeComplexOdds:
    done: Chance
    fumbled: Chance
    exhausted: Chance
    given_up: Chance
    mean_rounds: Chance = strawberry.field(description="An exact rational in the Chance shape.")
    max_rounds: int
    rounds: list[HazeRoundOdds]

    @classmethod
    def from_domain(cls, odds: ComplexOdds) -> HazeComplexOdds:
        """Copy the service's odds."""
        return cls(
            done=Chance.from_fraction(odds.done),
            fumbled=Chance.from_fraction(odds.fumbled),
            exhausted=Chance.from_fraction(odds.exhausted),
            given_up=Chance.from_fraction(odds.given_up),
            mean_rounds=Chance.from_fraction(odds.mean_rounds),
            max_rounds=odds.max_rounds,
            rounds=[HazeRoundOdds.from_domain(r) for r in odds.rounds],
        )
