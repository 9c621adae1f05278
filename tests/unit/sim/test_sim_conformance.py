"""The fast simulator and the event-sourced engine, driven by the same policy, agree.

20,000 games each side; the engine side runs in a multiprocessing pool of 2 because it
takes a few ms per game. Agreement: escape rate, mean turns and mean encounters per game
within 4 standard errors of the difference.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from multiprocessing import get_context

import numpy as np
import pytest

from services.labyrinth import PartyMember
from services.sim.game import GameResult, play, uniforms
from services.sim.policies import get_policy
from services.sim.reference import play_engine
from services.sim.runner import SimulationSpec, run_games
from services.sim.stats import Tally

GAMES = 20_000
CHUNK = 1_000
# (policy, preset, party size): four members in v1 play with two actions removed.
CASES = [
    ("blind", "enchanted_forest_v1", 3),
    ("greedy", "enchanted_forest_v2", 3),
    ("greedy", "enchanted_forest_v1", 4),
]


def _spec(policy: str, preset: str, members: int) -> SimulationSpec:
    party = tuple(PartyMember(id=f"p{i}", name=f"Runner {i}") for i in range(1, members + 1))
    return SimulationSpec(preset=preset, policy=policy, party=party)


def _engine_chunk(args: tuple[str, str, int, int]) -> list[GameResult]:
    policy, preset, members, start = args
    spec = _spec(policy, preset, members)
    maze, combat, chosen = spec.maze(), spec.combat_model(), get_policy(policy)
    return [
        play_engine(maze, spec.party, chosen, combat, f"conformance/{i}")
        for i in range(start, start + CHUNK)
    ]


def _moments(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    return mean, sum((v - mean) ** 2 for v in values) / (n - 1)


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize(("policy", "preset", "members"), CASES)
def test_fast_simulator_agrees_with_the_engine_within_4_standard_errors(
    policy: str, preset: str, members: int
) -> None:
    spec = _spec(policy, preset, members)
    fast: list[GameResult] = []
    tally = Tally()
    compiled = spec.compiled()
    u = uniforms(np.random.Generator(np.random.PCG64(7)))
    for _ in range(GAMES):
        r = play(compiled, get_policy(policy), u)
        fast.append(r)
        tally.add(r)
    assert run_games(compiled, policy, 10, 1).games == 10
    with get_context("fork").Pool(2) as pool:
        chunks = pool.map(
            _engine_chunk, [(policy, preset, members, s) for s in range(0, GAMES, CHUNK)]
        )
    engine = [r for chunk in chunks for r in chunk]
    assert len(engine) == GAMES
    metrics: dict[str, Callable[[GameResult], float]] = {
        "escape": lambda r: float(r.outcome in (0, 1)),
        "turns": lambda r: float(r.turns),
        "encounters": lambda r: float(r.encounters),
    }
    for name, f in metrics.items():
        m1, v1 = _moments([f(r) for r in fast])
        m2, v2 = _moments([f(r) for r in engine])
        se = math.sqrt(v1 / GAMES + v2 / GAMES)
        assert abs(m1 - m2) <= 4 * se, f"{name}: fast {m1:.4f} vs engine {m2:.4f} (se {se:.4f})"
