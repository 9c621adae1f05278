"""GraphQL: HazeRoundOdds, the chance a complex action ends at one round, by ending."""

from __future__ import annotations

import strawberry

from api.graphql.chance import Chance
from services.haze.complex_odds import RoundOdds


@strawberry.type(description="P(the action ends at this round), split by how it ends.")
class HazeRoundOdds:
    round: int
    chance: Chance
    done: Chance
    fumbled: Chance
    exhausted: Chance
    given_up: Chance

    @classmethod
    def from_domain(cls, row: RoundOdds) -> HazeRoundOdds:
        """Copy one round's odds."""
        return cls(
            round=row.round,
            chance=Chance.from_fraction(row.chance),
            done=Chance.from_fraction(row.done),
            fumbled=Chance.from_fraction(row.fumbled),
            exhausted=Chance.from_fraction(row.exhausted),
            given_up=Chance.from_fraction(row.given_up),
        )
