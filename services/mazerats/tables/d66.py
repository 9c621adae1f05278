"""Reading the 36-entry tables: the first die is the group (column), the second the item."""

from __future__ import annotations

from collections.abc import Sequence


def columns_of_six(block: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """Read a block printed as rows of columns in column order (each column is one group)."""
    width = len(block[0])
    return tuple(row[c] for c in range(width) for row in block)


def d66_index(first: int, second: int) -> int:
    """The position of (first die, second die) in a 36-entry table read by groups of six."""
    return (first - 1) * 6 + (second - 1)
