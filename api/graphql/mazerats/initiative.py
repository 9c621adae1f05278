"""GraphQL: MazeRatsInitiative, the side acting first and surprised characters' saves."""

from __future__ import annotations

import strawberry

from api.graphql.mazerats.save import MazeRatsSave
from api.graphql.rolled import Rolled
from services.mazerats.encounters import InitiativeOutcome


@strawberry.type(description="Who acts first; each surprised character's WIL save and skip.")
class MazeRatsInitiative(Rolled):
    first: str
    by_surprise: bool
    surprised_saves: list[MazeRatsSave]
    skips_first_turn: list[bool]
    seed: str

    @classmethod
    def from_domain(cls, initiative: InitiativeOutcome, seed: str) -> MazeRatsInitiative:
        """Wrap the initiative and the surprised characters' saves."""
        return cls(
            first=initiative.first.value,
            by_surprise=initiative.by_surprise,
            surprised_saves=[MazeRatsSave.from_domain(s.save, seed) for s in initiative.surprised],
            skips_first_turn=[s.skips_first_turn for s in initiative.surprised],
            seed=seed,
        )
