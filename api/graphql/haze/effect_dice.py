"""GraphQL: HazeEffectDice, an effect roll and (on request) its exact distribution."""

from __future__ import annotations

import strawberry
from starlette.concurrency import run_in_threadpool

from api.graphql.haze.effect_roll import HazeEffectRoll
from api.graphql.probability import Probability
from api.graphql.rolled import Rolled
from services.haze import EffectRoll, effect_distribution


@strawberry.type(description="Effect dice: how many, the roll, and their distribution.")
class HazeEffectDice(Rolled):
    dice: int
    roll: HazeEffectRoll
    seed: str

    @strawberry.field(description="Exact distribution; the open-ended tail is its errorBound.")
    async def distribution(self) -> Probability:
        report = await run_in_threadpool(effect_distribution, self.dice)
        return Probability.from_domain(report)

    @classmethod
    def from_domain(cls, effect: EffectRoll, seed: str) -> HazeEffectDice:
        """Wrap a rolled effect and the seed that replays it."""
        return cls(dice=effect.dice, roll=HazeEffectRoll.from_domain(effect), seed=seed)
