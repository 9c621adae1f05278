"""GraphQL: HazeLearnedSpell, a spell or prayer the AE may learn."""

from __future__ import annotations

import strawberry

from services.haze.spells import Learned


@strawberry.type(description="A spell or prayer the AE may learn; its own skill starts at 0.")
class HazeLearnedSpell:
    name: str
    school: str
    kind: str = strawberry.field(description="spell or prayer.")
    difficulty: int
    school_score: int
    level: int

    @classmethod
    def from_domain(cls, learned: Learned) -> HazeLearnedSpell:
        """Copy a learned spell."""
        spell = learned.spell
        return cls(
            name=spell.name,
            school=spell.school,
            kind=spell.kind,
            difficulty=spell.difficulty,
            school_score=learned.school_score,
            level=learned.level,
        )
