"""The simulator's loops and the event-sourced engine, driven by the same policy, agree.

The vectorised loop (the built-in policies) and the scalar loop (any policy) against the
engine, 20,000 games each; the engine side runs in a multiprocessing pool of 2 because it
takes a few ms per game. Agreement: escape rate, mean turns and mean encounters per game
within 4 standard errors of the difference.
"""

from __future__ import annotations

from multiprocessing import get_context

import numpy as np
import pytest

from services.labyrinth import PartyMember
from services.sim.game import GameResult, play, uniforms
from services.sim.policies import POLICIES, Blind, get_policy, register
from services.sim.reference import play_engine
from services.sim.runner import SimulationSpec, run_games
from services.sim.stats import Tally
from services.sim.vpolicies import vector_form
from tests.unit.sim.agreement import assert_agree

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


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize(("policy", "preset", "members"), CASES)
def test_the_vectorised_and_scalar_loops_agree_with_the_engine_within_4_standard_errors(
    policy: str, preset: str, members: int
) -> None:
    spec = _spec(policy, preset, members)
    compiled = spec.compiled()
    vectorised = run_games(compiled, policy, GAMES, 7)  # the built-in policies: vectorised
    scalar = Tally()
    u = uniforms(np.random.Generator(np.random.PCG64(8)))
    for _ in range(GAMES):
        scalar.add(play(compiled, get_policy(policy), u))
    with get_context("fork").Pool(2) as pool:
        chunks = pool.map(
            _engine_chunk, [(policy, preset, members, s) for s in range(0, GAMES, CHUNK)]
        )
    engine = Tally()
    for result in (r for chunk in chunks for r in chunk):
        engine.add(result)
    assert vectorised.games == scalar.games == engine.games == GAMES
    assert_agree(vectorised, engine, "vectorised")
    assert_agree(scalar, engine, "scalar")


def test_a_policy_registered_only_in_scalar_form_plays_on_the_scalar_loop() -> None:
    class Timid(Blind):
        name = "timid-test"

        def disarm(self) -> bool:
            return False

    register(Timid())
    try:
        compiled = SimulationSpec(preset="enchanted_forest_v1").compiled()
        timid = run_games(compiled, "timid-test", 2_000, 1)
        assert vector_form(get_policy("timid-test")) is None
        assert timid.games == 2_000 and timid.traps > 0 and timid.disarmed == 0
        assert run_games(compiled, "blind", 2_000, 1).disarmed > 0
    finally:
        POLICIES.pop("timid-test")
