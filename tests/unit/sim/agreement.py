"""Statistical agreement of two batches of simulated games (tallies)."""

from __future__ import annotations

import math
from collections import Counter

from services.sim.stats import Tally


def _moments(hist: Counter[int]) -> tuple[float, float]:
    n = sum(hist.values())
    mean = sum(k * v for k, v in hist.items()) / n
    return mean, sum(v * (k - mean) ** 2 for k, v in hist.items()) / (n - 1)


def metrics(t: Tally) -> dict[str, tuple[float, float]]:
    """Mean and variance per game of escape (0/1), turns and encounters."""
    escape = Counter({1: t.escapes, 0: t.games - t.escapes})
    return {
        "escape": _moments(escape),
        "turns": _moments(t.turns),
        "encounters": _moments(t.encounters),
    }


def assert_agree(ours: Tally, expected: Tally, label: str, sigmas: float = 4.0) -> None:
    """Every metric's means within `sigmas` standard errors of their difference."""
    want = metrics(expected)
    for name, (m1, v1) in metrics(ours).items():
        m2, v2 = want[name]
        se = math.sqrt(v1 / ours.games + v2 / expected.games)
        assert abs(m1 - m2) <= sigmas * se, f"{label} {name}: {m1:.4f} vs {m2:.4f} (se {se:.4f})"
