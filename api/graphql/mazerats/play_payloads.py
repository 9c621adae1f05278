"""GraphQL: the payload unions of the Maze Rats play queries (type or Problem)."""

from __future__ import annotations

from typing import Annotated, TypeAlias

import strawberry

from api.graphql.mazerats.advancement import MazeRatsAdvancement
from api.graphql.mazerats.healing import MazeRatsHealing
from api.graphql.mazerats.initiative import MazeRatsInitiative
from api.graphql.mazerats.inscription import MazeRatsInscription
from api.graphql.mazerats.morale import MazeRatsMorale
from api.graphql.mazerats.reaction import MazeRatsReaction
from api.graphql.mazerats.standing import MazeRatsStanding
from api.graphql.mazerats.turn import MazeRatsTurn
from api.graphql.problem import Problem

ReactionPayload: TypeAlias = Annotated[
    MazeRatsReaction | Problem, strawberry.union("MazeRatsReactionPayload")
]
MoralePayload: TypeAlias = Annotated[
    MazeRatsMorale | Problem, strawberry.union("MazeRatsMoralePayload")
]
InitiativePayload: TypeAlias = Annotated[
    MazeRatsInitiative | Problem, strawberry.union("MazeRatsInitiativePayload")
]
HealingPayload: TypeAlias = Annotated[
    MazeRatsHealing | Problem, strawberry.union("MazeRatsHealingPayload")
]
StandingPayload: TypeAlias = Annotated[
    MazeRatsStanding | Problem, strawberry.union("MazeRatsStandingPayload")
]
AdvancementPayload: TypeAlias = Annotated[
    MazeRatsAdvancement | Problem, strawberry.union("MazeRatsAdvancementPayload")
]
InscriptionPayload: TypeAlias = Annotated[
    MazeRatsInscription | Problem, strawberry.union("MazeRatsInscriptionPayload")
]
TurnPayload: TypeAlias = Annotated[MazeRatsTurn | Problem, strawberry.union("MazeRatsTurnPayload")]
