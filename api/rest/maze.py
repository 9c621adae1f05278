"""REST: the The Maze checks under /v1/maze (rolls carry their seed; odds are exact)."""

from __future__ import annotations

from typing import Any

from pydantic import Field
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from api.bodies import read_model
from api.rendering import chance
from api.rolls import Rendered, recorded_in_thread, rolls_json
from services.dice import new_seed, seeded_rng
from services.maze import usecases
from services.maze.damage import DamageOdds
from services.maze.group_odds import GroupOdds
from services.maze.odds import CheckOdds
from services.maze.requests import (
    CheckRequest,
    DamageRequest,
    GroupRequest,
    LootRequest,
    OpposedRequest,
    ValidateRequest,
)

Seed = Field(default=None, min_length=1, max_length=256)


class CheckBody(CheckRequest, Rendered):
    """A check to roll; without a seed one is chosen and returned."""

    seed: str | None = Seed


class DamageBody(DamageRequest, Rendered):
    """A damage roll; without a seed one is chosen and returned."""

    seed: str | None = Seed


class OpposedBody(OpposedRequest, Rendered):
    """An opposed roll; without a seed one is chosen and returned."""

    seed: str | None = Seed


class LootBody(LootRequest, Rendered):
    """A loot check; without a seed one is chosen and returned."""

    seed: str | None = Seed


class GroupBody(GroupRequest, Rendered):
    """A group check; without a seed one is chosen and returned."""

    seed: str | None = Seed


def odds_dict(odds: CheckOdds) -> dict[str, Any]:
    """JSON of a check's odds: success and each band as fraction and float."""
    out: dict[str, Any] = {
        "spec": odds.spec.model_dump(mode="json"),
        "success": chance(odds.success),
        "bands": {b.value: chance(p) for b, p in odds.bands.items()},
        "half": None,
    }
    if odds.half is not None:
        half = odds.half
        out["half"] = {
            "allowed": half.allowed,
            "score": half.score,
            "band": half.band,
            "beats_rolling": half.beats_rolling,
            "p_roll_better": chance(half.p_roll_better),
            "p_roll_same": chance(half.p_roll_same),
            "p_roll_worse": chance(half.p_roll_worse),
        }
    return out


def damage_odds_dict(odds: DamageOdds) -> dict[str, Any]:
    """JSON of a damage roll's odds: each injury, and taking half against rolling."""
    half = odds.half
    return {
        "injuries": {i.value: chance(p) for i, p in odds.injuries.items()},
        "half": {
            "score": half.score,
            "injury": half.injury.value,
            "beats_rolling": half.beats_rolling,
            "p_roll_better": chance(half.p_roll_better),
            "p_roll_same": chance(half.p_roll_same),
            "p_roll_worse": chance(half.p_roll_worse),
        },
    }


def group_odds_dict(odds: GroupOdds) -> dict[str, Any]:
    """JSON of a group check's odds, with their error bound."""
    return {
        "mode": odds.mode,
        "success": chance(odds.success),
        "bands": None
        if odds.bands is None
        else {b.value: chance(p) for b, p in odds.bands.items()},
        "exact": odds.exact,
        "error_bound": chance(odds.error_bound),
    }


async def check(request: Request) -> JSONResponse:
    """POST /v1/maze/checks: roll a check; band, tokens awarded, tokens to better bands."""
    body = await read_model(request, CheckBody)
    seed = body.seed or new_seed()
    outcome, rolls = await recorded_in_thread(usecases.roll_check, body, seeded_rng(seed))
    return JSONResponse(
        {**outcome.model_dump(mode="json"), "seed": seed, **rolls_json(rolls, body.render)}
    )


async def check_odds(request: Request) -> JSONResponse:
    """POST /v1/maze/checks/odds: exact P(success), P(each band), taking half or rolling."""
    body = await read_model(request, CheckRequest)
    return JSONResponse(odds_dict(usecases.odds_of_check(body)))


async def damage(request: Request) -> JSONResponse:
    """POST /v1/maze/damage: a damage roll, its injury, the odds of each injury and half."""
    body = await read_model(request, DamageBody)
    seed = body.seed or new_seed()
    (outcome, odds), rolls = await recorded_in_thread(usecases.roll_damage, body, seeded_rng(seed))
    rendered = damage_odds_dict(odds)
    return JSONResponse(
        {
            **outcome.model_dump(mode="json"),
            "odds": rendered["injuries"],
            "half": rendered["half"],
            "seed": seed,
            **rolls_json(rolls, body.render),
        }
    )


async def loot(request: Request) -> JSONResponse:
    """POST /v1/maze/loot-checks: a loot check and the class of loot it gives."""
    body = await read_model(request, LootBody)
    seed = body.seed or new_seed()
    outcome, rolls = await recorded_in_thread(usecases.roll_loot, body, seeded_rng(seed))
    return JSONResponse(
        {**outcome.model_dump(mode="json"), "seed": seed, **rolls_json(rolls, body.render)}
    )


async def loot_odds(request: Request) -> JSONResponse:
    """POST /v1/maze/loot-checks/odds: the exact probability of each class of loot."""
    body = await read_model(request, LootRequest)
    odds = usecases.odds_of_loot(body)
    return JSONResponse({"classes": {name: chance(p) for name, p in odds.items()}})


async def group(request: Request) -> JSONResponse:
    """POST /v1/maze/group-checks: every member rolls; the group meets the DC or not."""
    body = await read_model(request, GroupBody)
    seed = body.seed or new_seed()
    (outcome, odds), rolls = await recorded_in_thread(usecases.roll_group, body, seeded_rng(seed))
    return JSONResponse(
        {
            **outcome.model_dump(mode="json"),
            "odds": group_odds_dict(odds),
            "seed": seed,
            **rolls_json(rolls, body.render),
        }
    )


async def opposed(request: Request) -> JSONResponse:
    """POST /v1/maze/opposed: an opposed roll with the tie rules, and each side's chances."""
    body = await read_model(request, OpposedBody)
    seed = body.seed or new_seed()
    (outcome, odds), rolls = await recorded_in_thread(usecases.roll_opposed, body, seeded_rng(seed))
    return JSONResponse(
        {
            **outcome.model_dump(mode="json"),
            "odds": {
                "first_wins": chance(odds.p_first_wins),
                "second_wins": chance(odds.p_second_wins),
                "tie_per_round": chance(odds.p_tie_per_round),
            },
            "seed": seed,
            **rolls_json(rolls, body.render),
        }
    )


async def validate(request: Request) -> JSONResponse:
    """POST /v1/maze/characters/validate: every rule the sheet (and party) breaks."""
    body = await read_model(request, ValidateRequest)
    issues = usecases.validate(body)
    return JSONResponse({"valid": not issues, "issues": [i.model_dump() for i in issues]})


routes: list[BaseRoute] = [
    Route("/maze/checks", check, methods=["POST"]),
    Route("/maze/checks/odds", check_odds, methods=["POST"]),
    Route("/maze/damage", damage, methods=["POST"]),
    Route("/maze/loot-checks", loot, methods=["POST"]),
    Route("/maze/loot-checks/odds", loot_odds, methods=["POST"]),
    Route("/maze/group-checks", group, methods=["POST"]),
    Route("/maze/opposed", opposed, methods=["POST"]),
    Route("/maze/characters/validate", validate, methods=["POST"]),
]
