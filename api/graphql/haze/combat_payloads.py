"""GraphQL: the payload unions of the Haze combat queries (type or Problem)."""

from __future__ import annotations

from typing import Annotated, TypeAlias

import strawberry

from api.graphql.haze.initiative import HazeInitiative
from api.graphql.haze.reaction import HazeReaction
from api.graphql.haze.reaction_odds import HazeReactionOdds
from api.graphql.problem import Problem

HazeReactionPayload: TypeAlias = Annotated[
    HazeReaction | Problem, strawberry.union("HazeReactionPayload")
]
HazeReactionOddsPayload: TypeAlias = Annotated[
    HazeReactionOdds | Problem, strawberry.union("HazeReactionOddsPayload")
]
HazeInitiativePayload: TypeAlias = Annotated[
    HazeInitiative | Problem, strawberry.union("HazeInitiativePayload")
]
