"""The Emitter (events applied as they are decided) and the draw/shuffle/deal helpers."""

from __future__ import annotations

from services.dice import DEFAULT_LIMITS, Limits, Rng, roll
from services.labyrinth.events import (
    DeckReshuffled,
    Event,
    RiverDealt,
    RiverSlot,
    RollRecord,
    SlotCard,
)
from services.labyrinth.evolve import evolve
from services.labyrinth.state import MazeState

RIVER_SIZE = 3


class Emitter:
    """Collects decided events and folds each into a working state, so later steps see it."""

    def __init__(self, state: MazeState, rng: Rng) -> None:
        self.state = state
        self.rng = rng
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        """Record an event and apply it."""
        self.events.append(event)
        self.state = evolve(self.state, event)

    def roll(self, expression: str, limits: Limits = DEFAULT_LIMITS) -> RollRecord:
        """Roll with the command's generator and record every face."""
        return RollRecord.of(expression, roll(expression, self.rng, limits))

    def shuffled(self, items: tuple[str, ...]) -> tuple[str, ...]:
        """Fisher–Yates on `rng.below`."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.rng.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)

    def fresh_slot(self, taken: set[str]) -> str:
        """A new opaque id, unlinkable to the card's internal id or to earlier deals."""
        while True:
            # Two 24-bit draws: every generator (SimRng too) serves ranges this size.
            slot = f"s{self.rng.below(1 << 24):06x}{self.rng.below(1 << 24):06x}"
            if slot not in taken:
                taken.add(slot)
                return slot

    def slot_card(self, card: str, slot: str) -> SlotCard:
        """A visible card under its slot id."""
        c = self.state.cards[card]
        return SlotCard(card, slot, c.kind, c.label)

    def ensure_deck(self, needed: int) -> None:
        """Reshuffle the discard pile under the deck when the deck cannot give `needed`."""
        s = self.state
        if len(s.deck) < needed and s.discard:
            self.emit(DeckReshuffled(order=self.shuffled(s.discard)))

    def draw_available(self) -> int:
        """Cards the deck can give, counting a reshuffle of the discard pile."""
        return len(self.state.deck) + len(self.state.discard)

    def deal(self, count: int) -> None:
        """Deal up to `count` cards face down and issue fresh slot ids to the whole river."""
        self.ensure_deck(count)
        s = self.state
        dealt = s.deck[:count]
        taken: set[str] = set()
        slots = tuple(
            RiverSlot(
                card,
                self.fresh_slot(taken),
                card in s.face_up,
                s.cards[card].kind,
                s.cards[card].label,
            )
            for card in s.river + dealt
        )
        self.emit(RiverDealt(dealt=dealt, slots=slots))

    def fill_river(self) -> None:
        """Deal until the river holds three cards."""
        self.deal(max(0, RIVER_SIZE - len(self.state.river)))
