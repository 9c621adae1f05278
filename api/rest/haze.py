"""REST: the Haze checks under /v1/haze — actions, odds, effect dice, re-actions, initiative."""

from __future__ import annotations

from typing import Any

from pydantic import Field
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from api.bodies import read_model
from api.models import RequestModel, Seed
from api.rendering import chance
from api.rest import haze_checks
from api.rest.haze_render import action_odds_dict
from api.rolls import Rendered, recorded, recorded_in_thread, rolls_json
from services.dice import new_seed, seeded_rng
from services.haze import (
    ActionSpec,
    HazeRules,
    action_odds,
    effect_dice_for,
    effect_distribution,
    roll_action,
    roll_effect,
)
from services.haze.initiative import roll_initiatives
from services.haze.reaction import hit_odds, penalised, roll_reaction
from services.haze.requests import (
    EffectOddsRequest,
    EffectRequest,
    InitiativeRequest,
    ReactionRequest,
    ReactionRollRequest,
)


class HazeActionRequest(RequestModel, Rendered):
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


class EffectBody(EffectRequest, Rendered):
    """EffectRequest with `render` (the dice, per die and for VTTs)."""


class ReactionBody(ReactionRollRequest, Rendered):
    """ReactionRollRequest with `render` (the dice, per die and for VTTs)."""


class InitiativeBody(InitiativeRequest, Rendered):
    """InitiativeRequest with `render` (the dice, per die and for VTTs)."""


async def action(request: Request) -> JSONResponse:
    """POST /v1/haze/actions: roll d10 ≤ ability + skill; the seed replays it."""
    body = await read_model(request, HazeActionRequest)
    seed = body.seed if body.seed is not None else new_seed()
    outcome, rolls = recorded(
        roll_action, body.action, seeded_rng(seed), body.rules, take_arbitrary=body.arbitrary
    )
    out: dict[str, Any] = outcome.model_dump()
    out["effect_dice"] = effect_dice_for(body.action, body.rules)
    out["seed"] = seed
    return JSONResponse({**out, **rolls_json(rolls, body.render)})


async def action_odds_(request: Request) -> JSONResponse:
    """POST /v1/haze/actions/odds: exact P(success), P(fumble), success-rate distribution."""
    body = await read_model(request, HazeOddsRequest)
    odds = action_odds(body.action, body.rules, take_arbitrary=body.arbitrary)
    return JSONResponse(action_odds_dict(odds))


async def effect(request: Request) -> JSONResponse:
    """POST /v1/haze/effects: roll `dice` (or ability + skill) effect dice; seed replays."""
    body = await read_model(request, EffectBody)
    seed = body.seed if body.seed is not None else new_seed()
    rolled, rolls = await recorded_in_thread(roll_effect, body.count(), seeded_rng(seed))
    return JSONResponse({**rolled.model_dump(), "seed": seed, **rolls_json(rolls, body.render)})


async def effect_odds(request: Request) -> JSONResponse:
    """POST /v1/haze/effects/odds: the dice engine's exact report of `Nd10!`."""
    body = await read_model(request, EffectOddsRequest)
    report = await run_in_threadpool(effect_distribution, body.count())
    return JSONResponse(report.to_dict())


async def reaction(request: Request) -> JSONResponse:
    """POST /v1/haze/reactions: roll an attack and its re-action; exact chance of a hit."""
    body = await read_model(request, ReactionBody)
    seed = body.seed if body.seed is not None else new_seed()
    args = (body.attack, body.defence, seeded_rng(seed), body.rules, body.penalty)
    rolled, rolls = recorded(roll_reaction, *args)
    out: dict[str, Any] = rolled.model_dump(mode="json", exclude={"hit_odds"})
    out.update(hit_odds=chance(rolled.hit_odds), seed=seed, **rolls_json(rolls, body.render))
    return JSONResponse(out)


async def reaction_odds(request: Request) -> JSONResponse:
    """POST /v1/haze/reactions/odds: the exact chance the attack lands through the re-action."""
    body = await read_model(request, ReactionRequest)
    if body.defence is None:
        odds = action_odds(body.attack, body.rules).success
    else:
        odds = hit_odds(body.attack, penalised(body.defence, body.penalty), body.rules)
    return JSONResponse({"penalty": body.penalty, "hit": chance(odds)})


async def initiative(request: Request) -> JSONResponse:
    """POST /v1/haze/initiative: everyone's wits + initiative roll and who reacts first."""
    body = await read_model(request, InitiativeBody)
    seed = body.seed if body.seed is not None else new_seed()
    args = (body.combatants, seeded_rng(seed), body.rules, body.ambushers)
    result, rolls = recorded(roll_initiatives, *args)
    return JSONResponse(
        {**result.model_dump(mode="json"), "seed": seed, **rolls_json(rolls, body.render)}
    )


routes: list[BaseRoute] = [
    Route("/haze/actions", action, methods=["POST"]),
    Route("/haze/actions/odds", action_odds_, methods=["POST"]),
    Route("/haze/effects", effect, methods=["POST"]),
    Route("/haze/effects/odds", effect_odds, methods=["POST"]),
    Route("/haze/reactions", reaction, methods=["POST"]),
    Route("/haze/reactions/odds", reaction_odds, methods=["POST"]),
    Route("/haze/initiative", initiative, methods=["POST"]),
    *haze_checks.routes,
]
