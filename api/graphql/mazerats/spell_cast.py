"""GraphQL: MazeRatsSpellCast, a cast spell — HP lost, death, the corruption save."""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from api.graphql.chance import Chance
from api.graphql.mazerats.save import MazeRatsSave
from api.graphql.mazerats.spell_cost import MazeRatsSpellCost
from api.graphql.rolled import Rolled
from services.mazerats.casting import SpellCast


@strawberry.type(description="A cast spell: its price, HP after it, death and corruption.")
class MazeRatsSpellCast(Rolled):
    price: MazeRatsSpellCost
    actions: int
    hp_before: int
    hp: int
    dead: bool
    corruption_save: MazeRatsSave | None
    corrupted: bool
    resist_odds: Chance | None
    character: JSON | None
    seed: str

    @classmethod
    def from_domain(cls, cast: SpellCast, seed: str) -> MazeRatsSpellCast:
        """Wrap a cast spell and the seed that rolled its save."""
        save = cast.corruption_save
        return cls(
            price=MazeRatsSpellCost.from_domain(cast.price),
            actions=cast.actions,
            hp_before=cast.hp_before,
            hp=cast.hp,
            dead=cast.dead,
            corruption_save=None if save is None else MazeRatsSave.from_domain(save, seed),
            corrupted=cast.corrupted,
            resist_odds=None
            if cast.resist_odds is None
            else Chance.from_fraction(cast.resist_odds),
            character=None
            if cast.character is None
            else JSON(cast.character.model_dump(mode="json")),
            seed=seed,
        )
