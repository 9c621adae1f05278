"""GraphQL: HazeActionResult, a rolled (or arbitrary) action."""

from __future__ import annotations

import strawberry

from api.graphql.haze.effect_roll import HazeEffectRoll
from api.graphql.rolled import Rolled
from services.haze import ActionOutcome


@strawberry.type(description="An action: the roll, its success rate, and any fumble's effect.")
class HazeActionResult(Rolled):
    target: int
    difficulty: int
    roll: int | None = strawberry.field(description="Null for an arbitrary success.")
    margin: int = strawberry.field(description="Target − roll.")
    success_rate: int = strawberry.field(description="Target − roll − difficulty.")
    success: bool
    fumble: bool
    arbitrary: bool
    fumble_effect: HazeEffectRoll | None
    effect_dice: int | None = strawberry.field(description="Effect dice the action earns.")
    seed: str | None

    @classmethod
    def from_domain(
        cls, outcome: ActionOutcome, effect_dice: int | None = None, seed: str | None = None
    ) -> HazeActionResult:
        """Copy an outcome; `seed` replays it."""
        fumble = outcome.fumble_effect
        return cls(
            target=outcome.target,
            difficulty=outcome.difficulty,
            roll=outcome.roll,
            margin=outcome.margin,
            success_rate=outcome.success_rate,
            success=outcome.success,
            fumble=outcome.fumble,
            arbitrary=outcome.arbitrary,
            fumble_effect=HazeEffectRoll.from_domain(fumble) if fumble is not None else None,
            effect_dice=effect_dice,
            seed=seed,
        )
