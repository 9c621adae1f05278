"""Vectorised batches: same rules, seeded reproducibility, limits."""

from __future__ import annotations

import numpy as np
import pytest

from services.dice import DiceError, SimRng
from services.dice.batch import roll_batch


def test_a_batch_is_reproducible_from_its_seed_and_size() -> None:
    a = roll_batch("3d10!+2", 1000, SimRng(7)).totals
    b = roll_batch("3d10!+2", 1000, SimRng(7)).totals
    assert np.array_equal(a, b)
    assert not np.array_equal(a, roll_batch("3d10!+2", 1000, SimRng(8)).totals)


def test_a_check_batch_reports_success_and_margins() -> None:
    batch = roll_batch("1d10 <= 8", 10_000, SimRng(1))
    assert batch.success is not None and batch.margins is not None
    assert np.array_equal(batch.success, batch.margins >= 0)
    assert np.array_equal(batch.margins, 8 - batch.totals)


def test_keep_over_an_exploding_pool_falls_back_to_single_rolls() -> None:
    totals = roll_batch("4d6!kh3", 200, SimRng(2)).totals
    assert totals.min() >= 3 and len(totals) == 200


def test_batches_respect_limits_and_report_division_by_zero() -> None:
    with pytest.raises(DiceError) as info:
        roll_batch("1d6", 10**8, SimRng(1))
    assert info.value.code == "batch_too_large"
    with pytest.raises(DiceError) as info:
        roll_batch("6 / (1d2 - 1)", 100, SimRng(1))
    assert info.value.code == "division_by_zero"
