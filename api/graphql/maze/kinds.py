"""GraphQL resolvers for the check kinds with their own shape: loot and group checks."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from strawberry.scalars import JSON

from api.graphql.maze.group import MazeGroup
from api.graphql.maze.loot import MazeLoot, MazeLootOdds
from api.graphql.maze.payloads import MazeGroupPayload, MazeLootOddsPayload, MazeLootPayload
from api.graphql.problem import Problem
from api.graphql.rolled import with_rolls
from api.rolls import recorded_in_thread
from services.dice import new_seed, seeded_rng
from services.errors import DomainError
from services.maze import usecases
from services.maze.requests import GroupRequest, LootRequest


def present(**values: Any) -> dict[str, Any]:
    """The given arguments: omitted ones fall back to the pydantic model's defaults."""
    return {k: v for k, v in values.items() if v is not None}


async def maze_loot_check(
    die: int | None = None,
    modifier: int | None = None,
    ability: str | None = None,
    effects: list[str] | None = None,
    checked_this_run: list[str] | None = None,
    character: JSON | None = None,
    skill: str | None = None,
    claim_tunnel_vision: bool | None = None,
    tokens: int | None = None,
    take_half: bool | None = None,
    rules: JSON | None = None,
    content_pack: JSON | None = None,
    seed: str | None = None,
) -> MazeLootPayload:
    """Roll a loot check (luck traits add; tokens and half are refused by rule) and read
    the class from the chart."""
    args = present(**{k: v for k, v in locals().items() if k != "seed"})
    used = seed or new_seed()
    try:
        request = LootRequest.model_validate(args)
        outcome, rolls = await recorded_in_thread(usecases.roll_loot, request, seeded_rng(used))
    except ValidationError as exc:
        return Problem.from_validation(exc)
    except DomainError as exc:
        return Problem.from_domain(exc)
    return with_rolls(MazeLoot.from_domain(outcome, used), rolls)


def maze_loot_odds(
    die: int | None = None,
    modifier: int | None = None,
    ability: str | None = None,
    effects: list[str] | None = None,
    checked_this_run: list[str] | None = None,
    character: JSON | None = None,
    skill: str | None = None,
    claim_tunnel_vision: bool | None = None,
    tokens: int | None = None,
    take_half: bool | None = None,
    rules: JSON | None = None,
    content_pack: JSON | None = None,
) -> MazeLootOddsPayload:
    """The exact probability of each class of loot."""
    args = present(**locals())
    try:
        odds = usecases.odds_of_loot(LootRequest.model_validate(args))
    except ValidationError as exc:
        return Problem.from_validation(exc)
    except DomainError as exc:
        return Problem.from_domain(exc)
    return MazeLootOdds.from_domain(odds)


async def maze_group_check(
    members: list[JSON],
    dc: int | None = None,
    tokens: int | None = None,
    rules: JSON | None = None,
    content_pack: JSON | None = None,
    seed: str | None = None,
) -> MazeGroupPayload:
    """Roll a group check: members are {die, modifier, ...} or {character, skill}."""
    args = present(members=members, dc=dc, tokens=tokens, rules=rules, content_pack=content_pack)
    used = seed or new_seed()
    try:
        request = GroupRequest.model_validate(args)
        (outcome, odds), rolls = await recorded_in_thread(
            usecases.roll_group, request, seeded_rng(used)
        )
    except ValidationError as exc:
        return Problem.from_validation(exc)
    except DomainError as exc:
        return Problem.from_domain(exc)
    return with_rolls(MazeGroup.from_domain(outcome, odds, used), rolls)
