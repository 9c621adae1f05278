"""bench/dice.py's numpy baseline rolls the same dice as `roll_batch("1d10!")` (else the
ratio means nothing): over 200,000 rolls each, both match the exact distribution of an
exploding d10 (a chi-square test at p > 10^-4, bins with too few expected rolls pooled),
and neither ever totals a multiple of 10."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chisquare

from bench.baselines.dice_numpy import exploding_d10
from services.dice import SimRng, probability
from services.dice.batch import roll_batch

ROLLS = 200_000
TOP = 40  # totals from here up share one bin


@pytest.mark.parametrize("who", ["roll_batch", "numpy baseline"])
def test_both_sides_roll_an_exploding_d10(who: str) -> None:
    if who == "roll_batch":
        totals = roll_batch("1d10!", ROLLS, SimRng(7)).totals
    else:
        totals = exploding_d10(ROLLS, 7)
    dist = probability("1d10!").dist
    expected = np.array([dist.pmf.get(t, 0) / dist.den for t in range(1, TOP)])
    expected = np.append(expected, 1 - expected.sum()) * ROLLS
    observed = np.bincount(np.minimum(totals, TOP), minlength=TOP + 1)[1:]
    assert not observed[expected == 0].any()
    enough = expected >= 5  # chi-square needs enough expected rolls per bin
    few = (expected > 0) & ~enough
    obs = np.append(observed[enough], observed[few].sum())
    exp = np.append(expected[enough], expected[few].sum())
    assert chisquare(obs[exp > 0], exp[exp > 0]).pvalue > 1e-4
