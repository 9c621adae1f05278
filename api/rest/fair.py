"""REST: provably fair rolls — commit, roll, reveal, verify."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from api import dice
from api.bodies import read_model
from api.metrics import count_roll
from api.models import CommitmentRequest, FairRollRequest, RevealRequest, VerifyRequest
from infra.settings import Settings


def _secret_key(request: Request) -> bytes:
    settings: Settings = request.app.state.settings
    return settings.secret_key_bytes


async def create_commitment(request: Request) -> JSONResponse:
    """POST /v1/dice/fair/commitments: publish the hash of a fresh server seed."""
    body = await read_model(request, CommitmentRequest)
    commitment = dice.issue_commitment(_secret_key(request), body.ttl_seconds)
    return JSONResponse(commitment.to_dict(), status_code=201)


async def fair_roll(request: Request) -> JSONResponse:
    """POST /v1/dice/fair/roll: a roll decided by server seed + client seed + nonce."""
    body = await read_model(request, FairRollRequest)
    result = await dice.fair_roll_async(
        _secret_key(request), body.commitment_id, body.client_seed, body.nonce, body.expression
    )
    count_roll(request, "rest")
    return JSONResponse(dice.roll_dict(result, body.render))


async def reveal(request: Request) -> JSONResponse:
    """POST /v1/dice/fair/reveal: the server seed, once its commitment has expired."""
    body = await read_model(request, RevealRequest)
    return JSONResponse(dice.reveal_dict(_secret_key(request), body.commitment_id))


async def verify(request: Request) -> JSONResponse:
    """POST /v1/dice/verify: recompute a fair roll from revealed inputs."""
    body = await read_model(request, VerifyRequest)
    verification = await dice.verify_async(
        body.expression, body.server_seed, body.client_seed, body.nonce, body.hash
    )
    return JSONResponse(verification.to_dict())


routes: list[BaseRoute] = [
    Route("/dice/fair/commitments", create_commitment, methods=["POST"]),
    Route("/dice/fair/roll", fair_roll, methods=["POST"]),
    Route("/dice/fair/reveal", reveal, methods=["POST"]),
    Route("/dice/verify", verify, methods=["POST"]),
]
