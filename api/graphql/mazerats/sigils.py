"""GraphQL: MazeRatsSigils, a shop's offer of sigils and the seed that made it."""

from __future__ import annotations

import strawberry

from api.graphql.mazerats.sigil import MazeRatsSigil
from services.mazerats.magic import Sigil


@strawberry.type(description="The sigils a shop offers, reproducible from the seed.")
class MazeRatsSigils:
    seed: str
    sigils: list[MazeRatsSigil]

    @classmethod
    def from_domain(cls, sigils: list[Sigil], seed: str) -> MazeRatsSigils:
        """Wrap generated sigils."""
        return cls(seed=seed, sigils=[MazeRatsSigil.from_domain(s) for s in sigils])
