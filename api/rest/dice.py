"""REST: roll an expression and compute its exact distribution."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from api import dice
from api.bodies import read_model
from api.metrics import count_roll
from api.models import ProbabilityRequest, RollRequest


async def roll(request: Request) -> JSONResponse:
    """POST /v1/dice/roll: a seeded roll; the response carries the seed to replay it."""
    body = await read_model(request, RollRequest)
    result, seed = await dice.roll_async(body.expression, body.seed)
    count_roll(request, "rest")
    return JSONResponse(dice.roll_dict(result, body.render, seed))


async def probability(request: Request) -> JSONResponse:
    """POST /v1/dice/probability: the exact distribution report of an expression."""
    body = await read_model(request, ProbabilityRequest)
    return JSONResponse(await dice.probability_dict_async(body.expression))


routes: list[BaseRoute] = [
    Route("/dice/roll", roll, methods=["POST"]),
    Route("/dice/probability", probability, methods=["POST"]),
]
