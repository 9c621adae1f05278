"""GraphQL: the Mutation root — the provably fair flow, which is bound to time."""

from __future__ import annotations

import strawberry
from pydantic import ValidationError

from api import dice
from api.graphql.commitment import Commitment
from api.graphql.context import Info
from api.graphql.payloads import CommitmentPayload, RevealPayload, RollPayload
from api.graphql.problem import DiceProblem
from api.graphql.reveal import Reveal
from api.graphql.roll import Roll
from api.graphql.scalars import Long
from api.metrics import count_roll
from api.models import DEFAULT_TTL_SECONDS, CommitmentRequest, FairRollRequest, RevealRequest
from services.dice import DiceError


@strawberry.type
class Mutation:
    @strawberry.mutation(description="Publish the hash of a fresh server seed.")
    def create_commitment(
        self, info: Info, ttl_seconds: int = DEFAULT_TTL_SECONDS
    ) -> CommitmentPayload:
        try:
            args = CommitmentRequest(ttl_seconds=ttl_seconds)
            commitment = dice.issue_commitment(
                info.context["settings"].secret_key_bytes, args.ttl_seconds
            )
        except ValidationError as exc:
            return DiceProblem.from_validation(exc)
        except DiceError as exc:
            return DiceProblem.from_domain(exc)
        return Commitment.from_domain(commitment)

    @strawberry.mutation(description="A roll decided by server seed + client seed + nonce.")
    async def fair_roll(
        self,
        info: Info,
        commitment_id: strawberry.ID,
        client_seed: str,
        nonce: Long,
        expression: str,
    ) -> RollPayload:
        try:
            args = FairRollRequest(
                commitment_id=str(commitment_id),
                client_seed=client_seed,
                nonce=nonce,
                expression=expression,
            )
            result = await dice.fair_roll_async(
                info.context["settings"].secret_key_bytes,
                args.commitment_id,
                args.client_seed,
                args.nonce,
                args.expression,
            )
        except ValidationError as exc:
            return DiceProblem.from_validation(exc)
        except DiceError as exc:
            return DiceProblem.from_domain(exc)
        count_roll(info.context["request"], "graphql")
        return Roll.from_domain(result)

    @strawberry.mutation(description="The server seed of a commitment, once it has expired.")
    def reveal_commitment(self, info: Info, commitment_id: strawberry.ID) -> RevealPayload:
        try:
            args = RevealRequest(commitment_id=str(commitment_id))
            revealed = dice.reveal_dict(
                info.context["settings"].secret_key_bytes, args.commitment_id
            )
        except ValidationError as exc:
            return DiceProblem.from_validation(exc)
        except DiceError as exc:
            return DiceProblem.from_domain(exc)
        return Reveal.from_domain(revealed)
