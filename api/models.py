"""Request models shared by REST and GraphQL: the shape and bounds of every input."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from api.usecases.markers import LONG, Named

# A transport bound only: the engine's own limits refuse long expressions with a
# precise `limit_exceeded`, so this sits well above them.
MAX_EXPRESSION_CHARS = 500_000
MAX_SEED_CHARS = 256
MAX_ID_CHARS = 512
MAX_NONCE = 2**63 - 1
MIN_TTL_SECONDS = 60
MAX_TTL_SECONDS = 86_400
DEFAULT_TTL_SECONDS = 3_600

Expression = Annotated[str, Field(min_length=1, max_length=MAX_EXPRESSION_CHARS)]
# A name every viewer at a table is shown (a party member's, a campaign's): printable,
# without C0/C1 control characters, line or paragraph separators, nor the bidirectional
# embeddings, overrides and isolates that would make it display as other text than it
# is; and not blank. (No lookahead: the pattern is read by pydantic's Rust regex and, in
# the contract, by ECMA-262's.)
_NOT_SHOWN = r"\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
# What leaves a name blank: white space, and the zero-width and invisible characters
# (ZWSP to RLM, word joiner and invisible operators, the BOM, which Rust's `\s` leaves
# out and ECMA's takes in).
_BLANK = r"\s\u200b-\u200f\u2060-\u2064\ufeff"
SHOWN_NAME_PATTERN = rf"^[^{_NOT_SHOWN}]*[^{_NOT_SHOWN}{_BLANK}][^{_NOT_SHOWN}]*$"
ShownName = Annotated[str, Field(min_length=1, max_length=100, pattern=SHOWN_NAME_PATTERN)]
# A roll's label, shown beside it to everyone who sees the roll: the name rule, shorter.
RollLabel = Annotated[str, Field(min_length=1, max_length=64, pattern=SHOWN_NAME_PATTERN)]
Seed = Annotated[str, Field(min_length=1, max_length=MAX_SEED_CHARS)]
Nonce = Annotated[int, LONG, Field(ge=0, le=MAX_NONCE)]
CommitmentId = Annotated[str, Field(min_length=1, max_length=MAX_ID_CHARS)]
Rendering = Annotated[Literal["foundry", "dice_so_nice"], Named("Rendering")]


class Frozen(BaseModel):
    """A model that refuses unknown fields and never changes: the base of the request
    bodies and answers written in api/ (values coerced as pydantic does)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class RequestModel(BaseModel):
    """Base of every request body: unknown fields are refused, values are not coerced."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class RollRequest(RequestModel):
    """Roll an expression; without a seed the service picks one and returns it."""

    expression: Expression
    seed: Seed | None = None
    render: list[Rendering] = Field(default_factory=list, max_length=2)


class ProbabilityRequest(RequestModel):
    """The exact distribution of an expression."""

    expression: Expression


class CommitmentRequest(RequestModel):
    """Publish a commitment to a fresh server seed, valid for ttl_seconds."""

    ttl_seconds: int = Field(default=DEFAULT_TTL_SECONDS, ge=MIN_TTL_SECONDS, le=MAX_TTL_SECONDS)


class FairRollRequest(RequestModel):
    """Roll under a commitment: server seed + client seed + nonce decide the dice."""

    commitment_id: CommitmentId
    client_seed: Seed
    nonce: Nonce
    expression: Expression
    render: list[Rendering] = Field(default_factory=list, max_length=2)


class RevealRequest(RequestModel):
    """Reveal the server seed of an expired commitment."""

    commitment_id: CommitmentId


class VerifyRequest(RequestModel):
    """Recompute a provably fair roll from its revealed inputs."""

    expression: Expression
    server_seed: Seed
    client_seed: Seed
    nonce: Nonce
    hash: Annotated[
        str,
        Field(
            pattern=r"^[0-9a-fA-F]{64}$",
            description="The commitment's hash: sha256(server_seed), 64 hex digits.",
        ),
    ]
