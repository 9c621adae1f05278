"""GraphQL: payload unions — each success type or the DiceProblem that explains a refusal."""

from __future__ import annotations

from typing import Annotated, TypeAlias

import strawberry

from api.graphql.commitment import Commitment
from api.graphql.probability import Probability
from api.graphql.problem import DiceProblem
from api.graphql.reveal import Reveal
from api.graphql.roll import Roll
from api.graphql.verification import Verification

RollPayload: TypeAlias = Annotated[Roll | DiceProblem, strawberry.union("RollPayload")]
ProbabilityPayload: TypeAlias = Annotated[
    Probability | DiceProblem, strawberry.union("ProbabilityPayload")
]
CommitmentPayload: TypeAlias = Annotated[
    Commitment | DiceProblem, strawberry.union("CommitmentPayload")
]
RevealPayload: TypeAlias = Annotated[Reveal | DiceProblem, strawberry.union("RevealPayload")]
VerificationPayload: TypeAlias = Annotated[
    Verification | DiceProblem, strawberry.union("VerificationPayload")
]
