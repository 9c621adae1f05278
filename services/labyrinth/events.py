"""Events: what happened (past tense, frozen), with every rolled value and shuffled order.

Card references carry the internal id (for `evolve`) and, where the table can see the
card, its per-deal slot id, kind and label (for the per-viewer redaction in `redact`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from services.eventtypes import EventRegistry
from services.labyrinth.cards import Card
from services.labyrinth.definition import MazeDefinition, TrapEntry
from services.labyrinth.profiles import PartyMember, Stat
from services.labyrinth.records import (
    Combatant,
    InitiativeRoll,
    PoisonSave,
    RiverSlot,
    RollRecord,
    SlotCard,
)
from services.labyrinth.vocab import Action, EncounterOutcome
from services.slotted import quick_init

# Stored names are a contract (services/eventtypes.py): a class may be renamed, never its name.
EVENTS = EventRegistry("labyrinth")


@EVENTS.event("MazeStarted")
@dataclass(frozen=True, slots=True, kw_only=True)
class MazeStarted:
    definition: MazeDefinition
    party: tuple[PartyMember, ...]
    cards: tuple[Card, ...]
    deck: tuple[str, ...]
    pool: tuple[str, ...]


@EVENTS.event("InitiativeRolled")
@dataclass(frozen=True, slots=True, kw_only=True)
class InitiativeRolled:
    rolls: tuple[InitiativeRoll, ...]
    order: tuple[str, ...]


@EVENTS.event("ActionsRemoved")
@dataclass(frozen=True, slots=True, kw_only=True)
class ActionsRemoved:
    rolls: tuple[RollRecord, ...]
    removed: tuple[Action, ...]


@EVENTS.event("TurnStarted")
@dataclass(frozen=True, slots=True, kw_only=True)
class TurnStarted:
    player: str
    round: int


@EVENTS.event("TurnSkipped")
@dataclass(frozen=True, slots=True, kw_only=True)
class TurnSkipped:
    player: str
    asleep_turns_left: int


@EVENTS.event("DeckReshuffled")
@dataclass(frozen=True, slots=True, kw_only=True)
class DeckReshuffled:
    order: tuple[str, ...]


@EVENTS.event("RiverDealt")
@dataclass(frozen=True, slots=True, kw_only=True)
class RiverDealt:
    dealt: tuple[str, ...]
    slots: tuple[RiverSlot, ...]


@EVENTS.event("ActionAttempted")
@dataclass(frozen=True, slots=True, kw_only=True)
class ActionAttempted:
    player: str
    action: Action
    stat: Stat | None
    roll: RollRecord | None
    dc: int
    success: bool


@EVENTS.event("RightPathsForged")
@dataclass(frozen=True, slots=True, kw_only=True)
class RightPathsForged:
    cards: tuple[str, ...]


@EVENTS.event("ScoutRevealed")
@dataclass(frozen=True, slots=True, kw_only=True)
class ScoutRevealed:
    river_card: SlotCard
    deck_card: SlotCard


@EVENTS.event("CardsConsidered")
@dataclass(frozen=True, slots=True, kw_only=True)
class CardsConsidered:
    cards: tuple[SlotCard, ...]


@EVENTS.event("ElementaryDrawn")
@dataclass(frozen=True, slots=True, kw_only=True)
class ElementaryDrawn:
    cards: tuple[SlotCard, ...]


@EVENTS.event("ElementaryResolved")
@dataclass(frozen=True, slots=True, kw_only=True)
class ElementaryResolved:
    bottom: SlotCard
    top: tuple[str, ...]


@EVENTS.event("DeadEndRemoved")
@dataclass(frozen=True, slots=True, kw_only=True)
class DeadEndRemoved:
    card: SlotCard


@EVENTS.event("CardRevealed")
@dataclass(frozen=True, slots=True, kw_only=True)
class CardRevealed:
    player: str
    card: SlotCard


@EVENTS.event("CardChosen")
@dataclass(frozen=True, slots=True, kw_only=True)
class CardChosen:
    player: str
    card: SlotCard


@EVENTS.event("RightPathScored")
@dataclass(frozen=True, slots=True, kw_only=True)
class RightPathScored:
    points: int


@EVENTS.event("DeadEndStuck")
@dataclass(frozen=True, slots=True, kw_only=True)
class DeadEndStuck:
    card: SlotCard


@EVENTS.event("DeadEndsCleared")
@dataclass(frozen=True, slots=True, kw_only=True)
class DeadEndsCleared:
    cards: tuple[SlotCard, ...]
    destination: Literal["discard", "game"]


@EVENTS.event("MonsterCardAdded")
@dataclass(frozen=True, slots=True, kw_only=True)
class MonsterCardAdded:
    card: str
    destination: Literal["discard", "deck", "deck_top"]
    deck: tuple[str, ...] | None = None


@EVENTS.event("MonsterPointScored")
@dataclass(frozen=True, slots=True, kw_only=True)
class MonsterPointScored:
    points: int


@EVENTS.event("EncounterStarted")
@dataclass(frozen=True, slots=True, kw_only=True)
class EncounterStarted:
    monster: str
    table_roll: RollRecord
    monster_initiative: RollRecord
    order: tuple[Combatant, ...]


@EVENTS.event("EncounterResolved")
@dataclass(frozen=True, slots=True, kw_only=True)
class EncounterResolved:
    outcome: EncounterOutcome
    monster_points: int


@EVENTS.event("MonsterCardRemoved")
@dataclass(frozen=True, slots=True, kw_only=True)
class MonsterCardRemoved:
    card: str
    zone: Literal["deck", "river"]


@EVENTS.event("TrapRolled")
@dataclass(frozen=True, slots=True, kw_only=True)
class TrapRolled:
    card: SlotCard
    roll: RollRecord
    entry: TrapEntry
    dc: int


@EVENTS.event("DisarmAttempted")
@dataclass(frozen=True, slots=True, kw_only=True)
class DisarmAttempted:
    player: str
    roll: RollRecord
    dc: int
    success: bool


@EVENTS.event("TrapSprung")
@dataclass(frozen=True, slots=True, kw_only=True)
class TrapSprung:
    entry: TrapEntry
    saves: tuple[PoisonSave, ...] = ()


@EVENTS.event("PlayerFellAsleep")
@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerFellAsleep:
    player: str
    turns: int


@EVENTS.event("PlayerWoke")
@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerWoke:
    player: str
    by: str | None


@EVENTS.event("DeadEndPlaced")
@dataclass(frozen=True, slots=True, kw_only=True)
class DeadEndPlaced:
    card: SlotCard


@EVENTS.event("TurnEnded")
@dataclass(frozen=True, slots=True, kw_only=True)
class TurnEnded:
    player: str
    discarded: tuple[str, ...]


@EVENTS.event("RiverCleared")
@dataclass(frozen=True, slots=True, kw_only=True)
class RiverCleared:
    discarded: tuple[str, ...]


@EVENTS.event("RoundEnded")
@dataclass(frozen=True, slots=True, kw_only=True)
class RoundEnded:
    round: int


@EVENTS.event("ActionsUnlocked")
@dataclass(frozen=True, slots=True, kw_only=True)
class ActionsUnlocked:
    actions: tuple[Action, ...]


@EVENTS.event("MazeEscaped")
@dataclass(frozen=True, slots=True, kw_only=True)
class MazeEscaped:
    reason: Literal["right_paths", "monster_killed"]


@EVENTS.event("MazeEnded")
@dataclass(frozen=True, slots=True, kw_only=True)
class MazeEnded:
    reason: str


@EVENTS.event("DiceRolled")
@dataclass(frozen=True, slots=True, kw_only=True)
class DiceRolled:
    """A roll at the table (the roll log): who rolled, what, and who may see it."""

    by: str | None
    label: str | None
    visibility: Literal["everyone", "gm", "whisper"]
    to: tuple[str, ...]
    roll: RollRecord


# GM overrides: each records the values it set (evolve copies them) and the GM's reason.


@EVENTS.event("MemberOverridden")
@dataclass(frozen=True, slots=True, kw_only=True)
class MemberOverridden:
    member: str
    asleep_turns: int
    in_play: bool
    reason: str


@EVENTS.event("TurnOverridden")
@dataclass(frozen=True, slots=True, kw_only=True)
class TurnOverridden:
    player: str
    next_player: str | None
    reason: str


@EVENTS.event("CardRevealedByGm")
@dataclass(frozen=True, slots=True, kw_only=True)
class CardRevealedByGm:
    card: SlotCard
    reason: str


@EVENTS.event("RiverCardMovedByGm")
@dataclass(frozen=True, slots=True, kw_only=True)
class RiverCardMovedByGm:
    card: SlotCard
    face_up: bool
    to: Literal["discard", "game", "deck_top", "deck_bottom", "deck_shuffled"]
    reason: str
    deck: tuple[str, ...] | None = None


@EVENTS.event("ScoreOverridden")
@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreOverridden:
    right_paths: int
    monster_points: int
    reason: str


@EVENTS.event("ActionsOverridden")
@dataclass(frozen=True, slots=True, kw_only=True)
class ActionsOverridden:
    locked: tuple[Action, ...]
    removed: tuple[Action, ...]
    action_taken: bool
    reason: str


@EVENTS.event("TrapOverridden")
@dataclass(frozen=True, slots=True, kw_only=True)
class TrapOverridden:
    entry: TrapEntry
    dc: int
    reason: str


Event = (
    MazeStarted
    | InitiativeRolled
    | ActionsRemoved
    | TurnStarted
    | TurnSkipped
    | DeckReshuffled
    | RiverDealt
    | ActionAttempted
    | RightPathsForged
    | ScoutRevealed
    | CardsConsidered
    | ElementaryDrawn
    | ElementaryResolved
    | DeadEndRemoved
    | CardRevealed
    | CardChosen
    | RightPathScored
    | DeadEndStuck
    | DeadEndsCleared
    | MonsterCardAdded
    | MonsterPointScored
    | EncounterStarted
    | EncounterResolved
    | MonsterCardRemoved
    | TrapRolled
    | DisarmAttempted
    | TrapSprung
    | PlayerFellAsleep
    | PlayerWoke
    | DeadEndPlaced
    | TurnEnded
    | RiverCleared
    | RoundEnded
    | ActionsUnlocked
    | MazeEscaped
    | MazeEnded
    | DiceRolled
    | MemberOverridden
    | TurnOverridden
    | CardRevealedByGm
    | RiverCardMovedByGm
    | ScoreOverridden
    | ActionsOverridden
    | TrapOverridden
)

EVENT_TYPES: tuple[type, ...] = Event.__args__

# A command builds a few events, each with the quicker __init__ (services/slotted.py).
for _event_type in EVENT_TYPES:
    quick_init(_event_type)
del _event_type

__all__ = [
    "Combatant",
    "InitiativeRoll",
    "PoisonSave",
    "RiverSlot",
    "RollRecord",
    "SlotCard",
]
