"""Reading the 36-entry tables: the first die is the group (column), the second the item."""

from __future__ import annotations

from collections.abc import Sequence


def columns_of_six(block: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """Read one printed block column by column, top to bottom; every six entries are a group.

    A 6-row block gives one group per column; a 12-row block gives two per column. This
    one reading serves every 36-entry table (docs/RULES.md (Maze Rats)).
    """
    width = len(block[0])
    return tuple(row[c] for c in range(width) for row in block)


def d66_index(first: int, second: int) -> int:
    """The position of (first die, second die) in a 36-entry table read by groups of six."""
    return (first - 1) * 6 + (second - 1)
