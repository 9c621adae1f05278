"""Frequencies of 10^5 seeded rolls agree with the exact distribution (chi-square, α = 0.001).

Seeds are fixed, so each case is deterministic: it passes or fails the same way every run.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import chisquare

from services.dice import HmacRng, SimRng, SystemRng, probability, roll
from services.dice.batch import roll_batch
from services.dice.report import ProbabilityReport

N = 100_000
ALPHA = 0.001
CASES = [
    "1d10!+2",  # The Maze
    "2d6+1",  # Maze Rats
    "1d10",  # Haze
    "3d10!",  # Haze effect dice
    "4d6kh3",
    "3d6r<=2",
    "1d8ro1",
    "6d10>=8!f=1",
    "2d6!!",
    "2d6!p",
    "max(1d20, 1d20) - 1d4",
]


def chi_square_p(report: ProbabilityReport, counts: Counter[int]) -> float:
    """p-value of observed counts against the exact pmf, pooling bins expected < 5."""
    d = report.dist
    expected, observed = [], []
    acc_e, acc_o = 0.0, 0
    for v in sorted(set(d.pmf) | set(counts)):
        acc_e += float(Fraction(d.pmf.get(v, 0), d.den)) * N
        acc_o += counts.get(v, 0)
        if acc_e >= 5:
            expected.append(acc_e)
            observed.append(acc_o)
            acc_e, acc_o = 0.0, 0
    if acc_e or acc_o:
        expected[-1] += acc_e
        observed[-1] += acc_o
    e = np.array(expected)
    e *= sum(observed) / e.sum()  # the tail (≤ 1e-12) is below any bin's resolution
    return float(chisquare(observed, e).pvalue)


@pytest.mark.parametrize("text", CASES)
def test_seeded_single_rolls_follow_the_exact_distribution(text: str) -> None:
    rng = HmacRng(f"chi-square {text}")
    counts = Counter(roll(text, rng).total for _ in range(N))
    assert chi_square_p(probability(text), counts) > ALPHA


@pytest.mark.parametrize("text", CASES)
def test_vectorised_batches_follow_the_exact_distribution(text: str) -> None:
    totals = roll_batch(text, N, SimRng(f"chi-square {text}")).totals
    counts = Counter(int(t) for t in totals)
    assert chi_square_p(probability(text), counts) > ALPHA


def test_the_system_generator_follows_the_exact_distribution() -> None:
    totals = roll_batch("2d6", N, SystemRng()).totals
    # Not seeded: a true statistical test; α = 1e-6 keeps false alarms negligible.
    assert chi_square_p(probability("2d6"), Counter(int(t) for t in totals)) > 1e-6
