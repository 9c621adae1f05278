"""GraphQL: the The Maze queries (checks, probabilities, characters). One type per module."""

from __future__ import annotations

from typing import Any

import strawberry
from pydantic import ValidationError
from pydantic.alias_generators import to_snake
from strawberry.scalars import JSON

from api.graphql.maze.check import MazeCheck
from api.graphql.maze.check_odds import MazeCheckOdds
from api.graphql.maze.damage import MazeDamage
from api.graphql.maze.kinds import maze_group_check, maze_loot_check, maze_loot_odds, present
from api.graphql.maze.opposed import MazeOpposed
from api.graphql.maze.payloads import (
    MazeCheckOddsPayload,
    MazeCheckPayload,
    MazeDamagePayload,
    MazeOpposedPayload,
    MazeValidationPayload,
)
from api.graphql.maze.skill import MazeSkill
from api.graphql.maze.trait import MazeTrait
from api.graphql.maze.validation import MazeValidation
from api.graphql.problem import Problem
from api.graphql.rolled import with_rolls
from api.rolls import recorded_in_thread
from services.dice import new_seed, seeded_rng
from services.maze import usecases
from services.maze.errors import MazeError
from services.maze.requests import CheckRequest, DamageRequest, OpposedRequest, ValidateRequest


@strawberry.type
class MazeQuery:
    @strawberry.field(description="Roll a check (die + modifier, or character + skill).")
    async def maze_check(
        self,
        die: int | None = None,
        modifier: int | None = None,
        dc: int | None = None,
        kind: str | None = None,
        ability: str | None = None,
        effects: list[str] | None = None,
        checked_this_run: list[str] | None = None,
        character: JSON | None = None,
        skill: str | None = None,
        tokens: int | None = None,
        take_half: bool | None = None,
        claim_tunnel_vision: bool | None = None,
        rules: JSON | None = None,
        content_pack: JSON | None = None,
        seed: str | None = None,
    ) -> MazeCheckPayload:
        args = present(**{k: v for k, v in locals().items() if k not in ("self", "seed")})
        used = seed or new_seed()
        try:
            request = CheckRequest.model_validate(args)
            outcome, rolls = await recorded_in_thread(
                usecases.roll_check, request, seeded_rng(used)
            )
        except ValidationError as exc:
            return Problem.from_validation(exc)
        except MazeError as exc:
            return Problem.from_domain(exc)
        return with_rolls(MazeCheck.from_domain(outcome, used), rolls)

    @strawberry.field(description="Exact P(success), P(each band), taking half against rolling.")
    def maze_check_odds(
        self,
        die: int | None = None,
        modifier: int | None = None,
        dc: int | None = None,
        kind: str | None = None,
        ability: str | None = None,
        effects: list[str] | None = None,
        checked_this_run: list[str] | None = None,
        character: JSON | None = None,
        skill: str | None = None,
        claim_tunnel_vision: bool | None = None,
        rules: JSON | None = None,
        content_pack: JSON | None = None,
    ) -> MazeCheckOddsPayload:
        args = present(**{k: v for k, v in locals().items() if k != "self"})
        try:
            odds = usecases.odds_of_check(CheckRequest.model_validate(args))
        except ValidationError as exc:
            return Problem.from_validation(exc)
        except MazeError as exc:
            return Problem.from_domain(exc)
        return MazeCheckOdds.from_domain(odds)

    @strawberry.field(description="Roll a damage check: Hardy added, injury capped.")
    async def maze_damage_check(
        self,
        die: int | None = None,
        modifier: int | None = None,
        ability: str | None = None,
        effects: list[str] | None = None,
        untreated: list[str] | None = None,
        character: JSON | None = None,
        tokens: int | None = None,
        take_half: bool | None = None,
        rules: JSON | None = None,
        content_pack: JSON | None = None,
        seed: str | None = None,
    ) -> MazeDamagePayload:
        args = present(**{k: v for k, v in locals().items() if k not in ("self", "seed")})
        used = seed or new_seed()
        try:
            request = DamageRequest.model_validate(args)
            (outcome, odds), rolls = await recorded_in_thread(
                usecases.roll_damage, request, seeded_rng(used)
            )
        except ValidationError as exc:
            return Problem.from_validation(exc)
        except MazeError as exc:
            return Problem.from_domain(exc)
        return with_rolls(MazeDamage.from_domain(outcome, odds, used), rolls)

    @strawberry.field(
        description="Roll an opposed check; sides are {die, modifier, isPc, total, tokens, "
        "takeHalf, ability, effects, checkedThisRun}."
    )
    async def maze_opposed_check(
        self, first: JSON, second: JSON, seed: str | None = None
    ) -> MazeOpposedPayload:
        used = seed or new_seed()
        try:
            request = OpposedRequest.model_validate(
                {"first": _snake(first), "second": _snake(second)}
            )
            (outcome, odds), rolls = await recorded_in_thread(
                usecases.roll_opposed, request, seeded_rng(used)
            )
        except ValidationError as exc:
            return Problem.from_validation(exc)
        except MazeError as exc:
            return Problem.from_domain(exc)
        return with_rolls(MazeOpposed.from_domain(outcome, odds, used), rolls)

    @strawberry.field(description="Every rule a character (and its party) breaks.")
    def maze_validate_character(
        self,
        character: JSON,
        party: list[JSON] | None = None,
        creation: bool = False,
        rules: JSON | None = None,
        content_pack: JSON | None = None,
    ) -> MazeValidationPayload:
        args = present(
            character=character,
            party=party,
            creation=creation,
            rules=rules,
            content_pack=content_pack,
        )
        try:
            issues = usecases.validate(ValidateRequest.model_validate(args))
        except ValidationError as exc:
            return Problem.from_validation(exc)
        except MazeError as exc:
            return Problem.from_domain(exc)
        return MazeValidation.from_domain(issues)

    maze_loot_check = strawberry.field(
        resolver=maze_loot_check, description="Roll a loot check: the class of loot it gives."
    )
    maze_loot_odds = strawberry.field(
        resolver=maze_loot_odds, description="The exact probability of each class of loot."
    )
    maze_group_check = strawberry.field(
        resolver=maze_group_check,
        description="Roll a group check against a collective DC, with the group's odds.",
    )

    @strawberry.field(description="The default skills and the abilities they roll.")
    def maze_skills(self) -> list[MazeSkill]:
        return [MazeSkill.from_domain(s) for s in usecases.DEFAULT_CATALOG.skills.values()]

    @strawberry.field(description="The default traits (their effects are neutral).")
    def maze_traits(self) -> list[MazeTrait]:
        return [MazeTrait.from_domain(t) for t in usecases.DEFAULT_CATALOG.traits.values()]


def _snake(side: Any) -> Any:
    # JSON sides may use the GraphQL spelling (isPc, takeHalf, checkedThisRun).
    if isinstance(side, dict):
        return {to_snake(k): v for k, v in side.items()}
    return side
