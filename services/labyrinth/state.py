"""The maze's state: a frozen snapshot that only `evolve` (in evolve.py) ever replaces."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from services.labyrinth.cards import Card
from services.labyrinth.definition import MazeDefinition, TrapEntry
from services.labyrinth.events import Combatant
from services.labyrinth.profiles import PartyMember
from services.labyrinth.vocab import LOCKED_ACTIONS, Action, CardKind

Phase = Literal[
    "not_started", "initiative", "turn", "choice", "trap", "encounter", "escaped", "ended"
]
ChoiceKind = Literal["resolve", "bottom"]


@dataclass(frozen=True, slots=True)
class PendingChoice:
    """Cards an action revealed, by slot id: pick one to resolve, or one for the bottom."""

    kind: ChoiceKind
    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PendingTrap:
    """A revealed trap waiting for the active player to disarm it or let it go off."""

    card: str
    entry: TrapEntry
    dc: int


@dataclass(frozen=True)
class MazeState:
    """Everything about one maze; zones hold internal card ids (deck: index 0 is the top)."""

    phase: Phase = "not_started"
    definition: MazeDefinition | None = None
    party: tuple[PartyMember, ...] = ()
    cards: dict[str, Card] = field(default_factory=dict)
    deck: tuple[str, ...] = ()
    river: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    pool: tuple[str, ...] = ()
    held: tuple[str, ...] = ()
    face_up: frozenset[str] = frozenset()
    stuck: frozenset[str] = frozenset()
    slots: dict[str, str] = field(default_factory=dict)
    initiative: dict[str, int] = field(default_factory=dict)
    order: tuple[str, ...] = ()
    turn_index: int = 0
    round: int = 0
    active: str | None = None
    action_taken: bool = False
    locked: frozenset[Action] = frozenset()
    unavailable: frozenset[Action] = frozenset()
    choice: PendingChoice | None = None
    trap: PendingTrap | None = None
    monster: str | None = None
    combat_order: tuple[Combatant, ...] = ()
    right_paths: int = 0
    monster_points: int = 0
    asleep: dict[str, int] = field(default_factory=dict)
    out_of_play: frozenset[str] = frozenset()
    pending_slowing: int = 0
    outcome: str | None = None

    @property
    def maze(self) -> MazeDefinition:
        """The definition (only after MazeStarted)."""
        assert self.definition is not None
        return self.definition

    def kind(self, card: str) -> CardKind:
        """The kind of a card by internal id."""
        return self.cards[card].kind

    def slot_of(self, card: str) -> str:
        """The current slot id of a card in the river or held."""
        for slot, cid in self.slots.items():
            if cid == card:
                return slot
        raise KeyError(card)

    @property
    def face_down(self) -> tuple[str, ...]:
        """River cards lying face down, in river order."""
        return tuple([c for c in self.river if c not in self.face_up])

    @property
    def member_ids(self) -> tuple[str, ...]:
        """The party's ids in the order given."""
        return tuple([m.id for m in self.party])

    @property
    def in_play(self) -> tuple[str, ...]:
        """The ids of members still in play (the GM can take one out), in party order."""
        return tuple([m.id for m in self.party if m.id not in self.out_of_play])

    def member(self, player: str) -> PartyMember:
        """A party member by id."""
        return next(m for m in self.party if m.id == player)

    @property
    def available_actions(self) -> frozenset[Action]:
        """Locked actions still in the game (v1 may remove some for big parties)."""
        return frozenset(LOCKED_ACTIONS) - self.unavailable

    def zones(self) -> tuple[tuple[str, ...], ...]:
        """Every zone a card can be in; together they hold each card exactly once."""
        return (self.deck, self.river, self.discard, self.removed, self.pool, self.held)
