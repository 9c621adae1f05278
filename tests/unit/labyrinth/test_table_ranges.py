"""Trap and monster table rows are checked arithmetically, whatever their ranges.

A row spanning a hundred million faces used to be enumerated face by face (about 40 s
of CPU for one 3 KB request, found by the contract fuzz): faces now lie within
±TABLE_FACES and overlaps are found on the sorted rows, in any order given.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from pydantic import ValidationError

from services.labyrinth.definition import TABLE_FACES, TABLE_ROWS, MonsterTable, TrapTable


def _rows(*spans: tuple[int, int]) -> dict[str, Any]:
    return {"entries": [{"low": lo, "high": hi, "name": f"r{lo}"} for lo, hi in spans]}


@pytest.mark.parametrize("table", [MonsterTable, TrapTable])
def test_a_huge_range_is_refused_at_once(table: type[MonsterTable] | type[TrapTable]) -> None:
    started = time.perf_counter()
    with pytest.raises(ValidationError) as refused:
        table.model_validate(_rows((-81_921_840, 74_824_947)))
    assert time.perf_counter() - started < 0.5
    bounds = {(e["loc"][-1], e["type"]) for e in refused.value.errors()}
    assert {("low", "greater_than_equal"), ("high", "less_than_equal")} <= bounds


@pytest.mark.parametrize(
    ("spans", "overlap"),
    [
        (((1, 3), (4, 6)), False),
        (((4, 6), (1, 3)), False),  # any order
        (((1, 3), (3, 6)), True),  # sharing one face
        (((4, 6), (1, 4)), True),
        (((1, 6), (2, 3)), True),  # one inside another
        (((-TABLE_FACES, 0), (1, TABLE_FACES)), False),
    ],
)
def test_overlapping_rows_are_found_in_any_order(
    spans: tuple[tuple[int, int], ...], overlap: bool
) -> None:
    if overlap:
        with pytest.raises(ValidationError, match="overlaps another row"):
            MonsterTable.model_validate(_rows(*spans))
    else:
        assert len(MonsterTable.model_validate(_rows(*spans)).entries) == len(spans)


def test_an_empty_range_and_too_many_rows_are_refused() -> None:
    with pytest.raises(ValidationError, match="is empty"):
        MonsterTable.model_validate(_rows((3, 1)))
    with pytest.raises(ValidationError, match="at most"):
        MonsterTable.model_validate(_rows(*((i, i) for i in range(TABLE_ROWS + 1))))
