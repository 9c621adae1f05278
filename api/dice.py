"""The dice use cases, shared by REST and GraphQL: the API supplies seeds, keys and time."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from typing import Any

from starlette.concurrency import run_in_threadpool

from api.models import Rendering
from services.dice import (
    ProbabilityReport,
    RollResult,
    fair,
    new_seed,
    probability,
    render_dice_so_nice,
    render_foundry,
    roll,
    seeded_rng,
)
from services.dice.fair import Commitment, Verification


def now() -> int:
    """The current unix time in seconds; the only clock the dice endpoints read."""
    return int(time.time())


RENDERERS: dict[Rendering, Callable[[RollResult], dict[str, Any]]] = {
    "foundry": render_foundry,
    "dice_so_nice": render_dice_so_nice,
}


def roll_seeded(expression: str, seed: str | None) -> tuple[RollResult, str]:
    """Roll from `seed`, or from a fresh one so the roll can always be replayed."""
    used = seed if seed is not None else new_seed()
    return roll(expression, seeded_rng(used)), used


def roll_dict(
    result: RollResult, renders: Iterable[Rendering], seed: str | None = None
) -> dict[str, Any]:
    """Canonical JSON of a roll plus each requested rendering under its own key."""
    out = result.to_dict()
    if seed is not None:
        out.setdefault("seed", seed)
    for name in dict.fromkeys(renders):
        out[name] = RENDERERS[name](result)
    return out


async def roll_async(expression: str, seed: str | None) -> tuple[RollResult, str]:
    """roll_seeded off the event loop: a roll within limits is still CPU work."""
    return await run_in_threadpool(roll_seeded, expression, seed)


# Exact distributions can take up to about a second of CPU within the limits; bounding
# how many run at once keeps the event loop (health checks, rolls) responsive.
_DISTRIBUTIONS = asyncio.Semaphore(2)


async def probability_async(expression: str) -> ProbabilityReport:
    """The exact distribution, computed off the event loop, two at a time at most."""
    async with _DISTRIBUTIONS:
        return await run_in_threadpool(probability, expression)


async def probability_dict_async(expression: str) -> dict[str, Any]:
    """The distribution report as JSON, built off the event loop too (it can be large)."""
    async with _DISTRIBUTIONS:
        return await run_in_threadpool(lambda: probability(expression).to_dict())


def issue_commitment(secret_key: bytes, ttl_seconds: int) -> Commitment:
    """Commit to a fresh server seed valid for ttl_seconds from now."""
    return fair.issue_commitment(secret_key, now(), ttl_seconds)


async def fair_roll_async(
    secret_key: bytes, commitment_id: str, client_seed: str, nonce: int, expression: str
) -> RollResult:
    """A provably fair roll under a live commitment."""
    return await run_in_threadpool(
        fair.fair_roll, secret_key, commitment_id, client_seed, nonce, expression, now()
    )


def reveal(secret_key: bytes, commitment_id: str) -> str:
    """The server seed of an expired commitment."""
    return fair.reveal(secret_key, commitment_id, now())


def reveal_dict(secret_key: bytes, commitment_id: str) -> dict[str, Any]:
    """The reveal as JSON: id, server seed and the hash it was committed under."""
    seed = reveal(secret_key, commitment_id)
    return {"commitment_id": commitment_id, "server_seed": seed, "hash": fair.seed_hash(seed)}


async def verify_async(
    expression: str, server_seed: str, client_seed: str, nonce: int, hash_: str | None
) -> Verification:
    """Recompute a fair roll from revealed inputs and check the commitment hash."""
    return await run_in_threadpool(fair.verify, expression, server_seed, client_seed, nonce, hash_)
