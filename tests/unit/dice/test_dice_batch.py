"""Vectorised batches: same rules, seeded reproducibility, limits."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from services.dice import DiceError, SimRng
from services.dice.batch import _showing, roll_batch


def test_a_batch_is_reproducible_from_its_seed_and_size() -> None:
    a = roll_batch("3d10!+2", 1000, SimRng(7)).totals
    b = roll_batch("3d10!+2", 1000, SimRng(7)).totals
    assert np.array_equal(a, b)
    assert not np.array_equal(a, roll_batch("3d10!+2", 1000, SimRng(8)).totals)


# SHA-256 (first 16 hex digits) of 50,000 totals (and successes) from SimRng(f"pin {text}").
PINNED = [
    ("1d10!", "ddfbc03ac2e5d056"),
    ("1d20!", "ca572024d7ccb4a2"),
    ("1d12!p", "cee37e089ec4541b"),
    ("3d10!", "d0e894e4ec373ccf"),
    ("6d10>=8!f=1", "ec1f7baa07027951"),
    ("2d6!!", "32c9754a3639c2d7"),
    ("1d6!>=5", "21f03faa3775b1ab"),
    ("2d10!p>=9", "1073cfe7eb7105fd"),
    ("3d6r<=2!", "4e6748f41328e10d"),
    ("1d10!+2 >= 10", "caa3479790cce746"),
    ("4d6kh3", "199d2acdb6481fcb"),
    ("1d8ro1", "9d752d1a43d0cc71"),
]


@pytest.mark.parametrize(("text", "digest"), PINNED)
def test_a_seeded_batch_is_the_same_across_releases(text: str, digest: str) -> None:
    batch = roll_batch(text, 50_000, SimRng(f"pin {text}"))
    success = b"" if batch.success is None else batch.success.tobytes()
    assert hashlib.sha256(batch.totals.tobytes() + success).hexdigest()[:16] == digest


@pytest.mark.parametrize("share", [0.0, 0.01, 1 / 32, 0.05, 0.0996, 0.1, 0.1004, 0.3, 1.0])
@pytest.mark.parametrize("n", [100, 4096, 100_003])
def test_the_exploding_dice_are_found_at_any_share(share: float, n: int) -> None:
    rng = np.random.default_rng(int(share * 1e4) + n)
    x = np.where(rng.random(n) < share, 10, rng.integers(1, 10, n))
    assert np.array_equal(_showing(x, [10]), np.flatnonzero(x == 10))
    assert np.array_equal(_showing(x, [9, 10]), np.flatnonzero(x >= 9))


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
