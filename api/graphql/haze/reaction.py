"""GraphQL: HazeReaction, an attack met by a re-action, and the exact chance of a hit."""

from __future__ import annotations

import strawberry

from api.graphql.chance import Chance
from api.graphql.haze.action_result import HazeActionResult
from api.graphql.rolled import Rolled
from services.haze.reaction import ReactionRoll


@strawberry.type(description="Both rolls; what the defence took off; whether the blow lands.")
class HazeReaction(Rolled):
    attack: HazeActionResult
    defence: HazeActionResult | None
    penalty: int = strawberry.field(description="Initiative penalty on the re-action.")
    defence_value: int = strawberry.field(description="Taken off the attacker's success rate.")
    success_rate: int = strawberry.field(description="The attacker's net success rate.")
    hit: bool
    hit_odds: Chance
    seed: str

    @classmethod
    def from_domain(cls, rolled: ReactionRoll, seed: str) -> HazeReaction:
        """Wrap a rolled re-action."""
        guard = rolled.defence
        return cls(
            attack=HazeActionResult.from_domain(rolled.attack),
            defence=HazeActionResult.from_domain(guard) if guard is not None else None,
            penalty=rolled.penalty,
            defence_value=rolled.outcome.defence,
            success_rate=rolled.outcome.success_rate,
            hit=rolled.outcome.hit,
            hit_odds=Chance.from_fraction(rolled.hit_odds),
            seed=seed,
        )
