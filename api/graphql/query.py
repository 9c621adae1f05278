"""GraphQL: the dice queries — rolls, distributions and verification have no side effects."""

from __future__ import annotations

import strawberry
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from api import dice
from api.graphql.context import Info
from api.graphql.payloads import ProbabilityPayload, RollPayload, VerificationPayload
from api.graphql.probability import Probability
from api.graphql.problem import DiceProblem
from api.graphql.roll import Roll
from api.graphql.scalars import Long
from api.graphql.verification import Verification
from api.metrics import count_roll
from api.models import ProbabilityRequest, RollRequest, VerifyRequest
from services.dice import DiceError


@strawberry.type
class DiceQuery:
    @strawberry.field(description="Roll an expression; without a seed one is chosen and returned.")
    async def roll(self, info: Info, expression: str, seed: str | None = None) -> RollPayload:
        try:
            args = RollRequest(expression=expression, seed=seed)
            result, used = await dice.roll_async(args.expression, args.seed)
        except ValidationError as exc:
            return DiceProblem.from_validation(exc)
        except DiceError as exc:
            return DiceProblem.from_domain(exc)
        count_roll(info.context["request"], "graphql")
        return Roll.from_domain(result, used)

    @strawberry.field(description="The exact distribution of an expression.")
    async def probability(self, expression: str) -> ProbabilityPayload:
        try:
            args = ProbabilityRequest(expression=expression)
            report = await dice.probability_async(args.expression)
        except ValidationError as exc:
            return DiceProblem.from_validation(exc)
        except DiceError as exc:
            return DiceProblem.from_domain(exc)
        return await run_in_threadpool(Probability.from_domain, report)  # large JSON

    @strawberry.field(description="Recompute a provably fair roll from its revealed inputs.")
    async def verify_roll(
        self,
        expression: str,
        server_seed: str,
        client_seed: str,
        nonce: Long,
        hash: str | None = None,
    ) -> VerificationPayload:
        try:
            args = VerifyRequest(
                expression=expression,
                server_seed=server_seed,
                client_seed=client_seed,
                nonce=nonce,
                hash=hash,
            )
            verification = await dice.verify_async(
                args.expression, args.server_seed, args.client_seed, args.nonce, args.hash
            )
        except ValidationError as exc:
            return DiceProblem.from_validation(exc)
        except DiceError as exc:
            return DiceProblem.from_domain(exc)
        return Verification.from_domain(verification)
