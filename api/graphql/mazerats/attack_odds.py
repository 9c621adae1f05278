"""GraphQL: MazeRatsAttackOdds, the exact chance to hit and the damage distribution."""

from __future__ import annotations

import strawberry

from api.graphql.chance import Chance
from api.graphql.mazerats.damage_point import MazeRatsDamagePoint
from services.mazerats.combat import AttackOdds


@strawberry.type(description="Exact attack odds: hit chance, mean damage and its distribution.")
class MazeRatsAttackOdds:
    hit: Chance
    mean_damage: str
    damage: list[MazeRatsDamagePoint]

    @classmethod
    def from_domain(cls, odds: AttackOdds) -> MazeRatsAttackOdds:
        """Wrap the exact attack odds."""
        m = odds.mean_damage
        return cls(
            hit=Chance.from_fraction(odds.hit),
            mean_damage=f"{m.numerator}/{m.denominator}",
            damage=[MazeRatsDamagePoint.from_domain(d, p) for d, p in odds.damage.items()],
        )
