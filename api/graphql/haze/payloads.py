"""GraphQL: the Haze payload unions — each success type or the Problem explaining a refusal."""

from __future__ import annotations

from typing import Annotated, TypeAlias

import strawberry

from api.graphql.haze.action_odds import HazeActionOdds
from api.graphql.haze.action_result import HazeActionResult
from api.graphql.haze.complex_action import HazeComplexAction
from api.graphql.haze.effect_dice import HazeEffectDice
from api.graphql.haze.exhaustion import HazeExhaustion
from api.graphql.problem import Problem

HazeActionPayload: TypeAlias = Annotated[
    HazeActionResult | Problem, strawberry.union("HazeActionPayload")
]
HazeActionOddsPayload: TypeAlias = Annotated[
    HazeActionOdds | Problem, strawberry.union("HazeActionOddsPayload")
]
HazeEffectDicePayload: TypeAlias = Annotated[
    HazeEffectDice | Problem, strawberry.union("HazeEffectDicePayload")
]
HazeComplexActionPayload: TypeAlias = Annotated[
    HazeComplexAction | Problem, strawberry.union("HazeComplexActionPayload")
]
HazeExhaustionPayload: TypeAlias = Annotated[
    HazeExhaustion | Problem, strawberry.union("HazeExhaustionPayload")
]
