"""Cards: an internal id (never shown to players), a kind, a label and where it came from."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Literal

from services.dice import DEFAULT_LIMITS, DiceError, parse
from services.dice.ast import Check
from services.dice.bounds import value_bounds
from services.dice.distribution import probability, quote
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
    the die can roll that fall in no row (they take the nearest row, docs/RULES.md), rows
    it can never roll. (The table's `die` at fault, a message) each; empty when they
    agree. The die's totals are its exact distribution's (`2d20kh1` rolls 1-20, `1d6*2`
    only even totals), for a die whose quote is at most MAX_TOTALS values, each placed by
    a binary search over the rows. Past what that enumerates (an explosion's tail, up to
    the roller's cap), or for a dearer die or one with no exact distribution, only rows
    beyond every total it can reach are reported."""
    out: list[tuple[tuple[str, str], str]] = []
    tables = (("trap_table", definition.trap_table), ("monster_table", definition.monster_table))
    for field, table in tables:
        found = _totals(table.die)
        if found is None:  # not a total: the definition refuses it already
            continue
        totals, low, high, exact = found
        rows = sorted((entry.low, entry.high, entry.name) for entry in table.entries)
        said = f"the die {table.die} rolls {_span(low, high)}"
        runs = _missed_runs(totals, rows)
        if exact and totals and runs == [(totals[0], totals[-1])]:
            out.append(((field, "die"), f"{said}, outside every row: each roll takes the nearest"))
            continue
        if runs and not exact:  # the tails past the first and last rows miss too
            if runs[0][0] == totals[0] and totals[0] < rows[0][0]:
                runs[0] = (low, runs[0][1])
            if runs[-1][1] == totals[-1] and totals[-1] > rows[-1][1]:
                runs[-1] = (runs[-1][0], high)
        if runs:
            spans = _listed([_span(a, b) for a, b in runs])
            one = runs == [(runs[0][0], runs[0][0])]
            verbs = "falls in no row and takes" if one else "fall in no row and take"
            out.append(((field, "die"), f"{said}; {spans} {verbs} the nearest"))
        never = [
            name
            for a, b, name in rows
            if b < low or a > high or (exact and not _holds(totals, a, b))
        ]
        if never:
            out.append(((field, "die"), f"{said}; never rolled: {_listed(never)}"))
    return out


# Priced before any work, from the die's quote: a distribution of at most MAX_TOTALS values
# and QUOTE_STEPS steps takes a few milliseconds (`100d20`, 1,901 values: 4 ms); a dearer
# die is checked by its bounds alone. Table dice are a few dozen values.
MAX_TOTALS = 2_000
QUOTE_STEPS = 80_000  # one token's work at the exact-odds endpoint (api/usecases/dice.py)


def _totals(die: str) -> tuple[list[int], int, int, bool] | None:
    """(the totals the die's exact distribution enumerates, sorted; its lowest and highest
    possible totals, explosions at the roller's cap; whether those are all its totals),
    no totals when it has too many or no exact distribution; None for a check."""
    root = parse(die).root
    if isinstance(root, Check):
        return None
    low, high = value_bounds(root, DEFAULT_LIMITS)
    try:
        priced = quote(die)
        if priced.points > MAX_TOTALS or priced.cost > QUOTE_STEPS:
            return [], low, high, False
        dist = probability(die).dist
    except DiceError:
        return [], low, high, False
    totals = sorted(t for t, weight in dist.pmf.items() if weight)
    exact = dist.tail == 0
    if exact and totals:
        return totals, totals[0], totals[-1], True
    # The distribution's ends, within the roller's caps (a tail's end is unbounded).
    return totals, int(max(low, dist.lo)), int(min(high, dist.hi)), exact


def _holds(totals: list[int], low: int, high: int) -> bool:
    """Whether any of the sorted `totals` lies in low..high."""
    at = bisect_left(totals, low)
    return at < len(totals) and totals[at] <= high


def _missed_runs(totals: list[int], rows: list[tuple[int, int, str]]) -> list[tuple[int, int]]:
    """The sorted `totals` in no row (the rows sorted, none overlapping), as runs (first,
    last) of totals that follow one another among `totals` (`1d6*2`'s 8, 10 and 12 are
    one run)."""
    lows = [row[0] for row in rows]
    runs: list[tuple[int, int]] = []
    extending = False
    for total in totals:
        at = bisect_right(lows, total) - 1
        if at >= 0 and total <= rows[at][1]:
            extending = False
        elif extending:
            runs[-1] = (runs[-1][0], total)
        else:
            runs.append((total, total))
            extending = True
    return runs


def _span(low: int, high: int) -> str:
    """`low to high`, or the one value."""
    return str(low) if low == high else f"{low} to {high}"


LISTED = 8  # items a warning names before "and N more"


def _listed(items: list[str]) -> str:
    shown = ", ".join(items[:LISTED])
    return shown if len(items) <= LISTED else f"{shown} and {len(items) - LISTED} more"
