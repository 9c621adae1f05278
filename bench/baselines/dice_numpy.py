"""A numpy-vectorised batch of exploding d10 (`1d10!`): the dice batch's baseline.

numpy's own generator (PCG64, `Generator.integers`, which draws in C) throws every die,
then re-throws only the dice that showed a 10, adding each new face, until none did.
The same rule as Daedalus's `roll_batch("1d10!", n, rng)`, none of its generality.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


def exploding_d10(n: int, seed: int) -> NDArray[np.int64]:
    """`n` totals of an exploding d10 (re-rolled and added on each 10)."""
    rng = np.random.default_rng(seed)
    totals = rng.integers(1, 11, n)
    live = np.flatnonzero(totals == 10)
    while live.size:
        again = rng.integers(1, 11, live.size)
        totals[live] += again
        live = live[again == 10]
    return totals
