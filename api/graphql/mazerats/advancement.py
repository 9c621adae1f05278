"""GraphQL: MazeRatsAdvancement, a character after a level-up."""

from __future__ import annotations

import strawberry

from services.mazerats.advancement import Advancement


@strawberry.type(description="The new level, its feature, and the sheet after applying it.")
class MazeRatsAdvancement:
    level: int
    feature: str
    strength: int
    dexterity: int
    will: int
    combat_bonus: int
    max_hp: int
    sigil_slots: int
    paths: int

    @classmethod
    def from_domain(cls, a: Advancement) -> MazeRatsAdvancement:
        """Wrap an advancement."""
        return cls(
            level=a.level,
            feature=a.feature.value,
            strength=a.abilities.strength,
            dexterity=a.abilities.dexterity,
            will=a.abilities.will,
            combat_bonus=a.combat_bonus,
            max_hp=a.max_hp,
            sigil_slots=a.sigil_slots,
            paths=a.paths,
        )
