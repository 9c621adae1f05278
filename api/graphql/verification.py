"""GraphQL: Verification, a fair roll recomputed from its revealed inputs."""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from api.graphql.roll import Roll
from services.dice.fair import Verification as DomainVerification


@strawberry.type(description="The recomputed roll and whether the seed matches its hash.")
class Verification:
    roll: Roll
    hash_matches: bool | None = strawberry.field(
        description="Null when no hash was given to check against."
    )
    json: JSON

    @classmethod
    def from_domain(cls, verification: DomainVerification) -> Verification:
        """Wrap a verification."""
        return cls(
            roll=Roll.from_domain(verification.roll),
            hash_matches=verification.hash_matches,
            json=JSON(verification.to_dict()),
        )
