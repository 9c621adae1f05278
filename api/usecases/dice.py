"""The dice use cases: rolls, exact distributions and the provably fair flow.

The API supplies what the pure services may not take for themselves: a fresh seed when
the caller gives none, the secret key, and the clock (`now`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from api.models import (
    CommitmentRequest,
    FairRollRequest,
    ProbabilityRequest,
    Rendering,
    RevealRequest,
    RollRequest,
    VerifyRequest,
)
from api.usecases import dice_results as out
from api.usecases.table import Access, Call, UseCase
from services.dice import (
    DiceLimitError,
    Quote,
    RollResult,
    dice_thrown,
    fair,
    new_seed,
    probability,
    quote,
    render_dice_so_nice,
    render_foundry,
    roll,
    seeded_rng,
)
from services.dice import ProbabilityReport as Report

RENDERERS: dict[Rendering, Callable[[RollResult], dict[str, Any]]] = {
    "foundry": render_foundry,
    "dice_so_nice": render_dice_so_nice,
}
SEEDED = (
    "Without `seed` the service picks one and returns it: the same expression and seed "
    "always give the same dice."
)
# Dice expressions add 400 (syntax error); fair rolls add 409 (commitment refused).
DICE_ERRORS = (400, 401, 413, 422, 429)
FAIR_ERRORS = (400, 401, 409, 413, 422, 429)


def now() -> int:
    """The current unix time in seconds; the only clock the dice use cases read."""
    return int(time.time())


def roll_result(
    result: RollResult, renders: tuple[Rendering, ...] | list[Rendering] = ()
) -> out.RollResult:
    """A rolled result as its model, with each requested rendering under its own key."""
    data = result.to_dict()
    for name in dict.fromkeys(renders):
        data[name] = RENDERERS[name](result)
    return out.RollResult.model_validate(data)


# A roll of at most this many dice (each die's explosions and rerolls bounded by the
# limits) answers on the event loop: for it, the threadpool's hop costs more CPU than the
# roll itself (bench/request_path.py). A larger one rolls in the threadpool.
INLINE_DICE = 24


def heavy_roll(request: RollRequest) -> bool:
    """Whether the roll is worth a trip to the threadpool."""
    return dice_thrown(request.expression) > INLINE_DICE


def roll_dice(request: RollRequest, call: Call) -> out.RollResult:
    """A seeded roll; the seed is in the answer so it can always be replayed."""
    seed = request.seed if request.seed is not None else new_seed()
    return roll_result(roll(request.expression, seeded_rng(seed)), request.render)


# The largest table an exact-odds answer may hold (about 2.5 MB of JSON); larger is
# refused before any work, whatever its computing cost.
MAX_ANSWER_POINTS = 20_000
# Price units (docs/OPERATIONS.md, "Price list"): steps and table size past the first.
STEPS_PER_TOKEN = 80_000
POINTS_PER_TOKEN = 400


def _quoted(expression: str) -> Quote:
    """The expression's quote; refused (costing nothing) when its answer is too large."""
    q = quote(expression)
    if q.points > MAX_ANSWER_POINTS:
        raise DiceLimitError(
            f"the answer would hold about {q.points} distinct values (at most "
            f"{MAX_ANSWER_POINTS}): ask for a check instead (e.g. `expression >= n`), "
            "or a smaller expression",
            code="distribution_too_large",
        )
    return q


def odds_price(request: ProbabilityRequest) -> int:
    """Tokens an exact distribution costs, from its quote (computing nothing): 1, plus
    one per 80,000 steps (at most 49), plus one per 400 values of the answer (at most
    50) — so the dearest allowed answer, 100, still fits the smallest burst."""
    q = _quoted(request.expression)
    return 1 + min(49, q.cost // STEPS_PER_TOKEN) + min(50, q.points // POINTS_PER_TOKEN)


def report(found: Report) -> out.ProbabilityReport:
    """An exact distribution report; percentiles as a list, like every other table."""
    data = found.to_dict()
    data["percentiles"] = [{"percent": int(p), "value": v} for p, v in data["percentiles"].items()]
    return out.ProbabilityReport.model_validate(data)


def distribution(request: ProbabilityRequest, call: Call) -> out.ProbabilityReport:
    """The exact distribution of an expression, refused first when its answer is too large."""
    _quoted(request.expression)
    return report(probability(request.expression))


def create_commitment(request: CommitmentRequest, call: Call) -> out.Commitment:
    """Commit to a fresh server seed valid for ttl_seconds from now."""
    key, ttl = call.settings.secret_key_bytes, request.ttl_seconds
    issued = fair.issue_commitment(key, now(), ttl, tenant=call.tenant)
    return out.Commitment.model_validate(issued.to_dict())


def fair_roll(request: FairRollRequest, call: Call) -> out.RollResult:
    """A roll decided by server seed + client seed + nonce under a live commitment."""
    key = call.settings.secret_key_bytes
    args = (request.commitment_id, request.client_seed, request.nonce, request.expression)
    rolled = fair.fair_roll(key, *args, now(), tenant=call.tenant)
    # Recorded before it is shown: a nonce rolls once, whatever the seed or expression.
    expires_at = fair.expiry(key, request.commitment_id, call.tenant)
    what = json.dumps([request.client_seed, request.expression])
    claims = call.fair_rolls()
    claims.claim(request.commitment_id, request.nonce, what, fair.ROLL_BUDGET, expires_at)
    return roll_result(rolled, request.render)


def reveal(request: RevealRequest, call: Call) -> out.Reveal:
    """The server seed of an expired commitment and the hash it was committed under."""
    seed = fair.reveal(call.settings.secret_key_bytes, request.commitment_id, now(), call.tenant)
    return out.Reveal(
        commitment_id=request.commitment_id, server_seed=seed, hash=fair.seed_hash(seed)
    )


def verify(request: VerifyRequest, call: Call) -> out.Verification:
    """Recompute a fair roll from its revealed inputs and check the commitment hash."""
    args = (request.server_seed, request.client_seed, request.nonce, request.hash)
    checked = fair.verify(request.expression, *args)
    return out.Verification(roll=roll_result(checked.roll), hash_matches=checked.hash_matches)


PUBLISHABLE = Access.PUBLISHABLE
ROWS: tuple[UseCase, ...] = (
    UseCase("diceRoll", "POST", "/dice/roll", "query", "roll", RollRequest, out.RollResult,
            roll_dice, "Roll a dice expression", "dice", errors=DICE_ERRORS,
            description=SEEDED, cpu=heavy_roll, rolls=True, access=PUBLISHABLE),
    UseCase("diceProbability", "POST", "/dice/probability", "query", "probability",
            ProbabilityRequest, out.ProbabilityReport, distribution,
            "Exact distribution of an expression", "dice", errors=DICE_ERRORS,
            concurrency=2, price=odds_price, access=PUBLISHABLE),
    UseCase("fairCommitment", "POST", "/dice/fair/commitments", "mutation",
            "create_commitment", CommitmentRequest, out.Commitment, create_commitment,
            "Commit to a fresh server seed", "fair", status=201),
    UseCase("fairRoll", "POST", "/dice/fair/roll", "mutation", "fair_roll",
            FairRollRequest, out.RollResult, fair_roll, "Roll under a commitment", "fair",
            errors=FAIR_ERRORS, cpu=True, rolls=True),
    UseCase("fairReveal", "POST", "/dice/fair/reveal", "mutation", "reveal_commitment",
            RevealRequest, out.Reveal, reveal, "Reveal an expired commitment's server seed",
            "fair", errors=FAIR_ERRORS),
    UseCase("fairVerify", "POST", "/dice/verify", "query", "verify_roll", VerifyRequest,
            out.Verification, verify, "Recompute a provably fair roll", "fair",
            errors=DICE_ERRORS, cpu=True, access=PUBLISHABLE),
)  # fmt: skip
