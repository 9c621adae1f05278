"""GraphQL: the Maze Rats payload unions — each success type or the Problem explaining a refusal."""

from __future__ import annotations

from typing import Annotated, TypeAlias

import strawberry

from api.graphql.mazerats.attack import MazeRatsAttack
from api.graphql.mazerats.attack_odds import MazeRatsAttackOdds
from api.graphql.mazerats.character import MazeRatsCharacter
from api.graphql.mazerats.opposed_odds import MazeRatsOpposedOdds
from api.graphql.mazerats.opposed_save import MazeRatsOpposedSave
from api.graphql.mazerats.save import MazeRatsSave
from api.graphql.mazerats.save_odds import MazeRatsSaveOdds
from api.graphql.mazerats.sigils import MazeRatsSigils
from api.graphql.mazerats.spell_cast import MazeRatsSpellCast
from api.graphql.mazerats.spell_cost import MazeRatsSpellCost
from api.graphql.problem import Problem

SavePayload: TypeAlias = Annotated[MazeRatsSave | Problem, strawberry.union("MazeRatsSavePayload")]
SaveOddsPayload: TypeAlias = Annotated[
    MazeRatsSaveOdds | Problem, strawberry.union("MazeRatsSaveOddsPayload")
]
OpposedSavePayload: TypeAlias = Annotated[
    MazeRatsOpposedSave | Problem, strawberry.union("MazeRatsOpposedSavePayload")
]
OpposedOddsPayload: TypeAlias = Annotated[
    MazeRatsOpposedOdds | Problem, strawberry.union("MazeRatsOpposedOddsPayload")
]
AttackPayload: TypeAlias = Annotated[
    MazeRatsAttack | Problem, strawberry.union("MazeRatsAttackPayload")
]
AttackOddsPayload: TypeAlias = Annotated[
    MazeRatsAttackOdds | Problem, strawberry.union("MazeRatsAttackOddsPayload")
]
CharacterPayload: TypeAlias = Annotated[
    MazeRatsCharacter | Problem, strawberry.union("MazeRatsCharacterPayload")
]
SigilsPayload: TypeAlias = Annotated[
    MazeRatsSigils | Problem, strawberry.union("MazeRatsSigilsPayload")
]
SpellCostPayload: TypeAlias = Annotated[
    MazeRatsSpellCost | Problem, strawberry.union("MazeRatsSpellCostPayload")
]
SpellCastPayload: TypeAlias = Annotated[
    MazeRatsSpellCast | Problem, strawberry.union("MazeRatsSpellCastPayload")
]
