"""GraphQL: MazeRatsStanding, what a character's XP gives."""

from __future__ import annotations

import strawberry

from services.mazerats.advancement import Standing


@strawberry.type(description="Level for the XP, features so far, max HP, sigil slots, paths.")
class MazeRatsStanding:
    xp: int
    level: int
    features: list[str]
    max_hp: int
    sigil_slots: int
    paths: int
    next_level_xp: int | None

    @classmethod
    def from_domain(cls, s: Standing) -> MazeRatsStanding:
        """Wrap a standing."""
        return cls(
            xp=s.xp,
            level=s.level,
            features=[f.value for f in s.features],
            max_hp=s.max_hp,
            sigil_slots=s.sigil_slots,
            paths=s.paths,
            next_level_xp=s.next_level_xp,
        )
