"""One copy of each maze definition and card table, shared by the states that hold it.

A state's definition and card table never change after MazeStarted, and every session
started from one preset holds equal ones: 23 of a fresh standard-deck state's 28 KB. So
a process keeps one copy of each (interned by value), whichever way the state was made:
a new session's MazeStarted, a replay, a snapshot. The sessions it caches then share
it, and the state cache, which measures a state's size by walking it, walks that copy
once (services/store/cache.py: 400 µs a state, 66 µs without them, on the bench
machine). Nothing changes a state's card table after MazeStarted (states are replaced,
never mutated), so sharing one is safe.

Bounded, since nothing here is counted in the state cache's bytes: at most `LIMIT` of
each kind (past it the oldest is forgotten; the states holding it keep it), and only
small ones (a definition of at most `LARGEST_DEFINITION` bytes of JSON, a table of at
most `LARGEST_TABLE` cards): every preset, and most custom mazes, are far below; a
large custom maze keeps its own copy, as before. At most a few MB a process.
"""

from __future__ import annotations

import threading
from typing import TypeVar

from services.labyrinth.cards import Card
from services.labyrinth.definition import MazeDefinition

LIMIT = 64
LARGEST_DEFINITION = 32 * 1024  # bytes of JSON (the presets: 1.3 KB at most)
LARGEST_TABLE = 128  # cards (the presets: 26 at most)

K = TypeVar("K")
V = TypeVar("V")

_lock = threading.Lock()
_definitions: dict[MazeDefinition, MazeDefinition] = {}
_card_tables: dict[tuple[Card, ...], dict[str, Card]] = {}


def definition(found: MazeDefinition) -> MazeDefinition:
    """The process's copy of a definition equal to `found` (`found`, the first time, or
    when it is too large to keep)."""
    shared = _definitions.get(found)
    if shared is not None:
        return shared
    if len(found.model_dump_json()) > LARGEST_DEFINITION:
        return found
    return _interned(_definitions, found, found)


def card_table(cards: tuple[Card, ...]) -> dict[str, Card]:
    """The card table (id → card) of a maze's cards: the process's copy (a table of its
    own when it is too large to keep)."""
    shared = _card_tables.get(cards)
    if shared is not None:
        return shared
    table = {c.id: c for c in cards}
    return table if len(cards) > LARGEST_TABLE else _interned(_card_tables, cards, table)


def _interned(table: dict[K, V], key: K, value: V) -> V:
    with _lock:
        found = table.setdefault(key, value)
        if len(table) > LIMIT:
            del table[next(iter(table))]
    return found
