"""GraphQL: Reveal, the server seed of an expired commitment."""

from __future__ import annotations

from typing import Any

import strawberry


@strawberry.type(description="A revealed server seed and the hash it was committed under.")
class Reveal:
    commitment_id: strawberry.ID
    server_seed: str
    hash: str

    @classmethod
    def from_domain(cls, revealed: dict[str, Any]) -> Reveal:
        """Copy the reveal as the REST endpoint returns it."""
        return cls(
            commitment_id=strawberry.ID(revealed["commitment_id"]),
            server_seed=revealed["server_seed"],
            hash=revealed["hash"],
        )
