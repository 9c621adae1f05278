"""GraphQL: MazeRatsHealing, a ration or bandage and the HP it restores."""

from __future__ import annotations

import strawberry

from api.graphql.mazerats.save import MazeRatsSave
from api.graphql.rolled import Rolled
from services.mazerats.healing import Healing


@strawberry.type(description="Healing: method, WIL save (bandage), HP healed and now, day's uses.")
class MazeRatsHealing(Rolled):
    method: str
    save: MazeRatsSave | None
    healed: int
    hp: int
    used_today: list[str]
    seed: str

    @classmethod
    def from_domain(cls, healing: Healing, seed: str) -> MazeRatsHealing:
        """Wrap a healing attempt."""
        return cls(
            method=healing.method.value,
            save=MazeRatsSave.from_domain(healing.save, seed) if healing.save else None,
            healed=healing.healed,
            hp=healing.hp,
            used_today=sorted(m.value for m in healing.used_today),
            seed=seed,
        )
