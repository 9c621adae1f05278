"""GraphQL: the payload unions of ability checks, spells and complex-action odds."""

from __future__ import annotations

from typing import Annotated, TypeAlias

import strawberry

from api.graphql.haze.ability_check import HazeAbilityCheck
from api.graphql.haze.complex_odds import HazeComplexOdds
from api.graphql.haze.learned_spell import HazeLearnedSpell
from api.graphql.problem import Problem

HazeAbilityCheckPayload: TypeAlias = Annotated[
    HazeAbilityCheck | Problem, strawberry.union("HazeAbilityCheckPayload")
]
HazeLearnedSpellPayload: TypeAlias = Annotated[
    HazeLearnedSpell | Problem, strawberry.union("HazeLearnedSpellPayload")
]
HazeComplexOddsPayload: TypeAlias = Annotated[
    HazeComplexOdds | Problem, strawberry.union("HazeComplexOddsPayload")
]
