"""GraphQL: the Maze payload unions — each success type or the Problem explaining a refusal."""

from __future__ import annotations

from typing import Annotated, TypeAlias

import strawberry

from api.graphql.maze.check import MazeCheck
from api.graphql.maze.check_odds import MazeCheckOdds
from api.graphql.maze.damage import MazeDamage
from api.graphql.maze.group import MazeGroup
from api.graphql.maze.loot import MazeLoot, MazeLootOdds
from api.graphql.maze.opposed import MazeOpposed
from api.graphql.maze.validation import MazeValidation
from api.graphql.problem import Problem

MazeCheckPayload: TypeAlias = Annotated[MazeCheck | Problem, strawberry.union("MazeCheckPayload")]
MazeCheckOddsPayload: TypeAlias = Annotated[
    MazeCheckOdds | Problem, strawberry.union("MazeCheckOddsPayload")
]
MazeDamagePayload: TypeAlias = Annotated[
    MazeDamage | Problem, strawberry.union("MazeDamagePayload")
]
MazeOpposedPayload: TypeAlias = Annotated[
    MazeOpposed | Problem, strawberry.union("MazeOpposedPayload")
]
MazeValidationPayload: TypeAlias = Annotated[
    MazeValidation | Problem, strawberry.union("MazeValidationPayload")
]
MazeLootPayload: TypeAlias = Annotated[MazeLoot | Problem, strawberry.union("MazeLootPayload")]
MazeLootOddsPayload: TypeAlias = Annotated[
    MazeLootOdds | Problem, strawberry.union("MazeLootOddsPayload")
]
MazeGroupPayload: TypeAlias = Annotated[MazeGroup | Problem, strawberry.union("MazeGroupPayload")]
