"""GraphQL: MazeRatsMorale, whether a morale check is due and the NPC's WIL save."""

from __future__ import annotations

from fractions import Fraction

import strawberry

from api.graphql.chance import Chance
from api.graphql.mazerats.save import MazeRatsSave
from api.graphql.rolled import Rolled
from services.mazerats.encounters import Morale


@strawberry.type(description="Morale: due or not; if rolled, the WIL save and whether it holds.")
class MazeRatsMorale(Rolled):
    due: bool
    save: MazeRatsSave | None
    holds: bool | None
    holds_odds: Chance
    seed: str

    @classmethod
    def from_domain(
        cls, due: bool, morale: Morale | None, odds: Fraction, seed: str
    ) -> MazeRatsMorale:
        """Wrap a morale check."""
        return cls(
            due=due,
            save=MazeRatsSave.from_domain(morale.save, seed) if morale else None,
            holds=morale.holds if morale else None,
            holds_odds=Chance.from_fraction(odds),
            seed=seed,
        )
