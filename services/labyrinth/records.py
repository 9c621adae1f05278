"""Value records carried inside events: rolls and cards as the table sees them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from services.dice import RollResult, recorded_dice
from services.labyrinth.vocab import CardKind
from services.slotted import quick_init


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

    def to_json(self) -> dict[str, Any]:
        """The record as JSON, with each die as `/v1/dice/roll` shows it (`dice`: sides,
        face, value, flags...), rebuilt from the expression and faces: a VTT draws the
        same dice from an event as from a roll. Stored events keep the three fields."""
        out: dict[str, Any] = {
            "expression": self.expression,
            "faces": list(self.faces),
            "total": self.total,
        }
        dice = recorded_dice(self.expression, self.faces, self.total)
        if dice is not None:
            out["dice"] = dice
        return out


@quick_init
@dataclass(frozen=True, slots=True)
class SlotCard:
    """A card the table can see, named by its slot id of the current deal."""

    card: str
    slot: str
    kind: CardKind
    label: str


@quick_init
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
