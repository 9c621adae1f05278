"""REST: Haze ability checks, spells and prayers, and complex-action odds under /v1/haze."""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from api.bodies import read_model
from api.rest.haze_render import action_odds_dict, exact
from api.rolls import Rendered, recorded, rolls_json
from services.dice import new_seed, seeded_rng
from services.haze import effect_dice_for
from services.haze.catalogue import CATALOGUE, CheckDef
from services.haze.checks import (
    HazeCheckRequest,
    HazeCheckRollRequest,
    check_odds,
    roll_check,
)
from services.haze.complex_odds import complex_odds
from services.haze.requests import HazeComplexOddsRequest
from services.haze.spells import (
    HazeCastRequest,
    HazeCastRollRequest,
    HazeLearnRequest,
    cast,
    cast_odds,
    cast_spec,
    learn,
)


class CheckRollBody(HazeCheckRollRequest, Rendered):
    """HazeCheckRollRequest with `render` (the dice, per die and for VTTs)."""


class CastRollBody(HazeCastRollRequest, Rendered):
    """HazeCastRollRequest with `render` (the dice, per die and for VTTs)."""


def entry_dict(entry: CheckDef) -> dict[str, Any]:
    """One catalogue entry as JSON."""
    return {
        "name": entry.name,
        "ability": entry.ability,
        "difficulty": entry.difficulty,
        "result": entry.result,
        "quote": entry.quote,
        "inputs": list(entry.inputs),
        "required": list(entry.required),
        "examples": entry.examples,
    }


async def catalogue(request: Request) -> JSONResponse:
    """GET /v1/haze/ability-checks: every check, its ability, difficulty and meaning."""
    return JSONResponse({"checks": [entry_dict(e) for e in CATALOGUE]})


async def check(request: Request) -> JSONResponse:
    """POST /v1/haze/ability-checks: roll a check; the seed replays it."""
    body = await read_model(request, CheckRollBody)
    seed = body.seed if body.seed is not None else new_seed()
    result, rolls = recorded(roll_check, body, seeded_rng(seed))
    return JSONResponse({**exact(result), "seed": seed, **rolls_json(rolls, body.render)})


async def check_odds_(request: Request) -> JSONResponse:
    """POST /v1/haze/ability-checks/odds: the exact odds of a check's action roll."""
    body = await read_model(request, HazeCheckRequest)
    odds = check_odds(body)
    return JSONResponse({"check": body.check, "ability": body.entry.ability,
                         **action_odds_dict(odds)})  # fmt: skip


async def spell_learn(request: Request) -> JSONResponse:
    """POST /v1/haze/spells/learn: allowed only with a school score above the difficulty."""
    body = await read_model(request, HazeLearnRequest)
    return JSONResponse(learn(body.spell, body.school_score).model_dump())


async def spell_cast(request: Request) -> JSONResponse:
    """POST /v1/haze/spells/cast: roll ability + spell level against its difficulty."""
    body = await read_model(request, CastRollBody)
    seed = body.seed if body.seed is not None else new_seed()
    outcome, rolls = recorded(cast, body, seeded_rng(seed))
    dice = effect_dice_for(cast_spec(body), body.rules)
    shown = rolls_json(rolls, body.render)
    return JSONResponse({**outcome.model_dump(), "effect_dice": dice, "seed": seed, **shown})


async def spell_cast_odds(request: Request) -> JSONResponse:
    """POST /v1/haze/spells/cast/odds: the exact odds of the casting roll."""
    body = await read_model(request, HazeCastRequest)
    return JSONResponse(action_odds_dict(cast_odds(body)))


async def complex_action_odds(request: Request) -> JSONResponse:
    """POST /v1/haze/complex-actions/odds: P(done, fumbled, exhausted, given up), rounds."""
    body = await read_model(request, HazeComplexOddsRequest)
    odds = await run_in_threadpool(
        complex_odds, body.action, body.participants, body.rules, body.max_rounds
    )
    return JSONResponse(exact(odds))


routes: list[BaseRoute] = [
    Route("/haze/ability-checks", catalogue, methods=["GET"]),
    Route("/haze/ability-checks", check, methods=["POST"]),
    Route("/haze/ability-checks/odds", check_odds_, methods=["POST"]),
    Route("/haze/spells/learn", spell_learn, methods=["POST"]),
    Route("/haze/spells/cast", spell_cast, methods=["POST"]),
    Route("/haze/spells/cast/odds", spell_cast_odds, methods=["POST"]),
    Route("/haze/complex-actions/odds", complex_action_odds, methods=["POST"]),
]
