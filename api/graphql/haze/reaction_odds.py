"""GraphQL: HazeReactionOdds, the exact chance an attack lands through a re-action."""

from __future__ import annotations

import strawberry

from api.graphql.chance import Chance


@strawberry.type(description="The exact chance of a hit, and the initiative penalty applied.")
class HazeReactionOdds:
    penalty: int
    hit: Chance
