"""bench/sim.py's baselines play the same rules as services/sim (else the ratios mean nothing).

20,000 games each: escape rate and mean turns within 4 standard errors of services/sim.
"""

from __future__ import annotations

import math

import numpy as np

from bench.baselines import sim_loop, sim_numpy
from services.sim.game import ESCAPED_KILL, ESCAPED_PATHS
from services.sim.runner import SimulationSpec, run_games

GAMES = 20_000


def _within_4_se(a: np.ndarray, b: np.ndarray, name: str) -> None:
    se = math.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    assert abs(a.mean() - b.mean()) <= 4 * se, f"{name}: {a.mean():.4f} vs {b.mean():.4f}"


def test_the_loop_and_numpy_baselines_agree_with_the_simulator() -> None:
    tally = run_games(SimulationSpec(preset="enchanted_forest_v1").compiled(), "blind", GAMES, 3)
    escaped = tally.escapes
    ours_escape = np.repeat([1.0, 0.0], [escaped, tally.games - escaped])
    ours_turns = np.repeat(list(tally.turns), list(tally.turns.values())).astype(float)
    loop = np.array(sim_loop.run(GAMES, 4), dtype=float)
    outcome, turns = sim_numpy.run(GAMES, 5)
    escapes = (ESCAPED_PATHS, ESCAPED_KILL)
    for name, escape, length in (
        ("loop", np.isin(loop[:, 0], escapes), loop[:, 1]),
        ("numpy", np.isin(outcome, escapes), turns.astype(float)),
    ):
        _within_4_se(escape.astype(float), ours_escape, f"{name} escape rate")
        _within_4_se(length, ours_turns, f"{name} mean turns")
