"""GraphQL: Commitment, the published hash of a server seed."""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from services.dice.fair import Commitment as DomainCommitment


@strawberry.type(description="The sha256 of a secret server seed, published before any roll.")
class Commitment:
    commitment_id: strawberry.ID
    hash: str
    expires_at: int = strawberry.field(description="Unix seconds; the seed is revealed after.")
    json: JSON

    @classmethod
    def from_domain(cls, commitment: DomainCommitment) -> Commitment:
        """Copy a commitment."""
        return cls(
            commitment_id=strawberry.ID(commitment.id),
            hash=commitment.hash,
            expires_at=commitment.expires_at,
            json=JSON(commitment.to_dict()),
        )
