"""GraphQL: MazeRatsTurn, a turn the rules allow and the actions it spends."""

from __future__ import annotations

import strawberry


@strawberry.type(description="An allowed turn and how many of its two actions it spends.")
class MazeRatsTurn:
    allowed: bool
    actions_spent: int
