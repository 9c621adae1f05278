"""GraphQL: HazeAbilityCheck, a rolled ability check and what it means."""

from __future__ import annotations

import strawberry

from api.graphql.chance import Chance
from api.graphql.haze.action_result import HazeActionResult
from api.graphql.rolled import Rolled
from services.haze.checks import CheckResult


@strawberry.type(
    description="A rolled ability check: the action roll, its exact chance, and its meaning; "
    "only the fields of the check's kind are set."
)
class HazeAbilityCheck(Rolled):
    check: str
    ability: str
    difficulty: int
    meaning: str
    outcome: HazeActionResult
    success_chance: Chance
    resisted: bool | None = strawberry.field(description="resist poison / disease.")
    strength_left: int | None = strawberry.field(description="resist poison.")
    penalty_reduction: int | None = strawberry.field(description="resist shock, for a round.")
    penalty_left: int | None = strawberry.field(description="resist shock.")
    extra_damage_dice: int | None = strawberry.field(description="brace: spear.")
    damage_dice_up_to: int | None = strawberry.field(description="brace: door.")
    attack_success_left: int | None = strawberry.field(description="dodge.")
    evaded: bool | None = strawberry.field(description="dodge.")
    social_bonus: int | None = strawberry.field(description="befriend: later social rolls.")
    hint: bool | None = strawberry.field(description="powers of deduction, insight.")
    seed: str

    @classmethod
    def from_domain(cls, r: CheckResult, seed: str) -> HazeAbilityCheck:
        """Copy a rolled check; `seed` replays it."""
        return cls(
            check=r.check,
            ability=r.ability,
            difficulty=r.difficulty,
            meaning=r.meaning,
            outcome=HazeActionResult.from_domain(r.outcome),
            success_chance=Chance.from_fraction(r.success_chance),
            resisted=r.resisted,
            strength_left=r.strength_left,
            penalty_reduction=r.penalty_reduction,
            penalty_left=r.penalty_left,
            extra_damage_dice=r.extra_damage_dice,
            damage_dice_up_to=r.damage_dice_up_to,
            attack_success_left=r.attack_success_left,
            evaded=r.evaded,
            social_bonus=r.social_bonus,
            hint=r.hint,
            seed=seed,
        )
