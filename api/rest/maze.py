"""REST: the The Maze checks under /v1/maze (rolls carry their seed; odds are exact)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pydantic import Field
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from api.bodies import read_model
from services.dice import new_seed, seeded_rng
from services.maze import usecases
from services.maze.odds import CheckOdds
from services.maze.requests import CheckRequest, DamageRequest, OpposedRequest, ValidateRequest

Seed = Field(default=None, min_length=1, max_length=256)


class CheckBody(CheckRequest):
    """A check to roll; without a seed one is chosen and returned."""

    seed: str | None = Seed


class DamageBody(DamageRequest):
    """A damage roll; without a seed one is chosen and returned."""

    seed: str | None = Seed


class OpposedBody(OpposedRequest):
    """An opposed roll; without a seed one is chosen and returned."""

    seed: str | None = Seed


def fraction(p: Fraction) -> dict[str, Any]:
    """A probability as an exact fraction string and a float."""
    return {"fraction": f"{p.numerator}/{p.denominator}", "float": float(p)}


def odds_dict(odds: CheckOdds) -> dict[str, Any]:
    """JSON of a check's odds: success and each band as fraction and float."""
    out: dict[str, Any] = {
        "spec": odds.spec.model_dump(mode="json"),
        "success": fraction(odds.success),
        "bands": {b.value: fraction(p) for b, p in odds.bands.items()},
        "half": None,
    }
    if odds.half is not None:
        half = odds.half
        out["half"] = {
            "allowed": half.allowed,
            "score": half.score,
            "band": half.band,
            "beats_rolling": half.beats_rolling,
            "p_roll_better": fraction(half.p_roll_better),
            "p_roll_same": fraction(half.p_roll_same),
            "p_roll_worse": fraction(half.p_roll_worse),
        }
    return out


async def check(request: Request) -> JSONResponse:
    """POST /v1/maze/checks: roll a check; band, tokens awarded, tokens to better bands."""
    body = await read_model(request, CheckBody)
    seed = body.seed or new_seed()
    outcome = await run_in_threadpool(usecases.roll_check, body, seeded_rng(seed))
    return JSONResponse({**outcome.model_dump(mode="json"), "seed": seed})


async def check_odds(request: Request) -> JSONResponse:
    """POST /v1/maze/checks/odds: exact P(success), P(each band), taking half or rolling."""
    body = await read_model(request, CheckRequest)
    return JSONResponse(odds_dict(usecases.odds_of_check(body)))


async def damage(request: Request) -> JSONResponse:
    """POST /v1/maze/damage: a damage roll, its injury and the odds of each injury."""
    body = await read_model(request, DamageBody)
    seed = body.seed or new_seed()
    outcome, odds = await run_in_threadpool(usecases.roll_damage, body, seeded_rng(seed))
    return JSONResponse(
        {
            **outcome.model_dump(mode="json"),
            "odds": {i.value: fraction(p) for i, p in odds.items()},
            "seed": seed,
        }
    )


async def opposed(request: Request) -> JSONResponse:
    """POST /v1/maze/opposed: an opposed roll with the tie rules, and each side's chances."""
    body = await read_model(request, OpposedBody)
    seed = body.seed or new_seed()
    outcome, odds = await run_in_threadpool(usecases.roll_opposed, body, seeded_rng(seed))
    return JSONResponse(
        {
            **outcome.model_dump(mode="json"),
            "odds": {
                "first_wins": fraction(odds.p_first_wins),
                "second_wins": fraction(odds.p_second_wins),
                "tie_per_round": fraction(odds.p_tie_per_round),
                "error_bound": fraction(odds.error_bound),
            },
            "seed": seed,
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
    Route("/maze/opposed", opposed, methods=["POST"]),
    Route("/maze/characters/validate", validate, methods=["POST"]),
]
