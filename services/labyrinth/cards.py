"""Cards: an internal id (never shown to players), a kind, a label and where it came from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from services.dice import DEFAULT_LIMITS, parse
from services.dice.ast import Check
from services.dice.bounds import value_bounds
from services.labyrinth.definition import DEFAULT_POOL, DeckCounts, MazeDefinition
from services.labyrinth.vocab import CardKind

Origin = Literal["deck", "pool"]

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
BLACK = frozenset({"♠", "♣"})
KIND_LABEL: dict[CardKind, str] = {
    CardKind.RIGHT_PATH: "Right Path",
    CardKind.DEAD_END: "Dead End",
    CardKind.MONSTER: "Monster",
    CardKind.TRAP: "Trap",
}


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card; `id` is stable for the whole maze, so only the GM ever sees it."""

    id: str
    kind: CardKind
    label: str
    origin: Origin


def playing_card_kind(rank: str, suit: str) -> CardKind:
    """v2's mapping: A/2 Monster, J/Q/K Trap, other black Right Path, other red Dead End."""
    if rank in ("A", "2"):
        return CardKind.MONSTER
    if rank in ("J", "Q", "K"):
        return CardKind.TRAP
    return CardKind.RIGHT_PATH if suit in BLACK else CardKind.DEAD_END


def _half_deck(suits: tuple[str, str]) -> list[tuple[CardKind, str]]:
    return [(playing_card_kind(rank, suit), f"{rank}{suit}") for suit in suits for rank in RANKS]


def _counted(counts: DeckCounts) -> list[tuple[CardKind, str]]:
    out: list[tuple[CardKind, str]] = []
    for kind, n in (
        (CardKind.RIGHT_PATH, counts.right_path),
        (CardKind.DEAD_END, counts.dead_end),
        (CardKind.MONSTER, counts.monster),
        (CardKind.TRAP, counts.trap),
    ):
        out.extend((kind, KIND_LABEL[kind]) for _ in range(n))
    return out


def build_cards(definition: MazeDefinition) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The deck's cards (printed order, unshuffled) and the pool's cards outside the game."""
    deck = _half_deck(("♠", "♥")) if definition.deck == "standard26" else _counted(definition.deck)
    if definition.pool == "other_half" or (
        definition.pool is None and definition.deck == "standard26"
    ):
        pool = _half_deck(("♣", "♦"))
    else:
        pool = _counted(definition.pool or DEFAULT_POOL)
    cards = [Card(f"c{i:02d}", kind, label, "deck") for i, (kind, label) in enumerate(deck, 1)]
    start = len(cards) + 1
    extra = [Card(f"c{i:02d}", kind, label, "pool") for i, (kind, label) in enumerate(pool, start)]
    return tuple(cards), tuple(extra)


def unwinnable(definition: MazeDefinition) -> list[tuple[tuple[str, str], str]]:
    """Why a definition the engine plays cannot be won as written: (the victory field at
    fault, a message) each; empty when it can."""
    kinds = [card.kind for card in build_cards(definition)[0]]
    victory, out = definition.victory, []
    paths, needed = kinds.count(CardKind.RIGHT_PATH), victory.right_paths
    if needed is not None and paths < needed and not victory.kill_monster:
        message = f"the deck holds {paths} Right Path cards, fewer than the {needed} needed"
        out.append((("victory", "right_paths"), message))
    if victory.kill_monster and needed is None and CardKind.MONSTER not in kinds:
        message = "the only way out is killing the monster, and the deck holds no Monster card"
        out.append((("victory", "kill_monster"), message))
    return out


def missed_rows(definition: MazeDefinition) -> list[tuple[tuple[str, str], str]]:
    """Where a trap or monster table and its die disagree, as authored by mistake: totals
    the die rolls that fall in no row (they take the nearest row, docs/RULES.md), rows it
    can never roll. (The table's `die` at fault, a message) each; empty when they agree.
    Ranges are compared, never enumerated (a die may reach its explosion cap)."""
    out: list[tuple[tuple[str, str], str]] = []
    tables = (("trap_table", definition.trap_table), ("monster_table", definition.monster_table))
    for field, table in tables:
        root = parse(table.die).root
        if isinstance(root, Check):  # not a total: the definition refuses it already
            continue
        low, high = value_bounds(root, DEFAULT_LIMITS)
        rows = sorted((entry.low, entry.high, entry.name) for entry in table.entries)
        gaps, at = [], low
        for row_low, row_high, _ in rows:
            if row_low > at and at <= high:
                gaps.append((at, min(row_low - 1, high)))
            at = max(at, row_high + 1)
        if at <= high:
            gaps.append((at, high))
        said = f"the die {table.die} rolls {low} to {high}"
        if gaps and len(gaps) == 1 and gaps[0] == (low, high):
            out.append(((field, "die"), f"{said}, outside every row: each roll takes the nearest"))
            continue
        if gaps:
            spans = ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in gaps)
            out.append(((field, "die"), f"{said}; {spans} fall in no row and take the nearest"))
        never = [name for row_low, row_high, name in rows if row_high < low or row_low > high]
        if never:
            out.append(((field, "die"), f"{said}; never rolled: {', '.join(never)}"))
    return out
