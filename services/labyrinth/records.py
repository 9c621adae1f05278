"""Value records carried inside events: rolls and cards as the table sees them."""

from __future__ import annotations

from dataclasses import dataclass

from services.dice import RollResult
from services.labyrinth.vocab import CardKind


@dataclass(frozen=True, slots=True)
class RollRecord:
    """A roll as it happened: expression, every die face in throw order, total."""

    expression: str
    faces: tuple[int, ...]
    total: int

    @classmethod
    def of(cls, expression: str, result: RollResult) -> RollRecord:
        """Record a roll result."""
        return cls(expression, tuple(d.face for d in result.dice), result.total)


@dataclass(frozen=True, slots=True)
class SlotCard:
    """A card the table can see, named by its slot id of the current deal."""

    card: str
    slot: str
    kind: CardKind
    label: str


@dataclass(frozen=True, slots=True)
class RiverSlot:
    """One river place after a deal: a fresh slot id, and whether the card lies face up."""

    card: str
    slot: str
    face_up: bool
    kind: CardKind
    label: str


@dataclass(frozen=True, slots=True)
class InitiativeRoll:
    player: str
    roll: RollRecord


@dataclass(frozen=True, slots=True)
class Combatant:
    name: str
    player: str | None
    initiative: int


@dataclass(frozen=True, slots=True)
class PoisonSave:
    player: str
    roll: RollRecord
    dc: int
    success: bool
    damage: RollRecord | None
