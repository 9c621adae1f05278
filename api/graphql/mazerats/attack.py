"""GraphQL: MazeRatsAttack, an attack roll against AC and the damage dealt."""

from __future__ import annotations

import strawberry

from api.graphql.rolled import Rolled
from services.mazerats.combat import Attack


@strawberry.type(description="An attack: 2d6 + Combat Bonus must exceed AC; damage dealt.")
class MazeRatsAttack(Rolled):
    dice: list[int]
    combat_bonus: int
    ac: int
    total: int
    hit: bool
    damage: int
    seed: str

    @classmethod
    def from_domain(cls, attack: Attack, seed: str) -> MazeRatsAttack:
        """Wrap an attack and its seed."""
        return cls(
            dice=list(attack.dice),
            combat_bonus=attack.combat_bonus,
            ac=attack.ac,
            total=attack.total,
            hit=attack.hit,
            damage=attack.damage,
            seed=seed,
        )
