"""REST: the Haze checks under /v1/haze — action rolls, their odds, effect dice."""

from __future__ import annotations

from typing import Any

from pydantic import Field
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from api.bodies import read_model
from api.models import RequestModel, Seed
from services.dice import new_seed, seeded_rng
from services.haze import (
    MAX_EFFECT_DICE,
    ActionSpec,
    HazeRules,
    action_odds,
    effect_dice_for,
    effect_distribution,
    roll_action,
    roll_effect,
)


class HazeActionRequest(RequestModel):
    """Roll an action; without a seed the service picks one and returns it."""

    action: ActionSpec
    arbitrary: bool = False
    rules: HazeRules = Field(default_factory=HazeRules)
    seed: Seed | None = None


class HazeOddsRequest(RequestModel):
    """The exact odds of an action."""

    action: ActionSpec
    arbitrary: bool = False
    rules: HazeRules = Field(default_factory=HazeRules)


class HazeEffectRequest(RequestModel):
    """Roll a number of effect dice (tens re-rolled and added)."""

    dice: int = Field(ge=0, le=MAX_EFFECT_DICE)
    seed: Seed | None = None


class HazeEffectOddsRequest(RequestModel):
    """The exact distribution of a number of effect dice."""

    dice: int = Field(ge=0, le=MAX_EFFECT_DICE)


async def action(request: Request) -> JSONResponse:
    """POST /v1/haze/actions: roll d10 ≤ ability + skill; the seed replays it."""
    body = await read_model(request, HazeActionRequest)
    seed = body.seed if body.seed is not None else new_seed()
    outcome = roll_action(body.action, seeded_rng(seed), body.rules, take_arbitrary=body.arbitrary)
    out: dict[str, Any] = outcome.model_dump()
    out["effect_dice"] = effect_dice_for(body.action, body.rules)
    out["seed"] = seed
    return JSONResponse(out)


async def action_odds_(request: Request) -> JSONResponse:
    """POST /v1/haze/actions/odds: exact P(success), P(fumble), success-rate distribution."""
    body = await read_model(request, HazeOddsRequest)
    odds = action_odds(body.action, body.rules, take_arbitrary=body.arbitrary)
    return JSONResponse(odds.to_dict())


async def effect(request: Request) -> JSONResponse:
    """POST /v1/haze/effects: roll effect dice; the seed replays them."""
    body = await read_model(request, HazeEffectRequest)
    seed = body.seed if body.seed is not None else new_seed()
    rolled = await run_in_threadpool(roll_effect, body.dice, seeded_rng(seed))
    return JSONResponse({**rolled.model_dump(), "seed": seed})


async def effect_odds(request: Request) -> JSONResponse:
    """POST /v1/haze/effects/odds: the dice engine's exact report of `Nd10!`."""
    body = await read_model(request, HazeEffectOddsRequest)
    report = await run_in_threadpool(effect_distribution, body.dice)
    return JSONResponse(report.to_dict())


routes: list[BaseRoute] = [
    Route("/haze/actions", action, methods=["POST"]),
    Route("/haze/actions/odds", action_odds_, methods=["POST"]),
    Route("/haze/effects", effect, methods=["POST"]),
    Route("/haze/effects/odds", effect_odds, methods=["POST"]),
]
