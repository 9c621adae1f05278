"""GraphQL: MazeReach, a better outcome and the fewest adversity tokens that reach it."""

from __future__ import annotations

import strawberry


@strawberry.type(description="A better band (or injury) and the fewest tokens that reach it.")
class MazeReach:
    outcome: str
    tokens: int

    @classmethod
    def from_domain(cls, outcome: str, tokens: int) -> MazeReach:
        """From an outcome name and a token count."""
        return cls(outcome=outcome, tokens=tokens)
