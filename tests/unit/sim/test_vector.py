"""The vectorised loop plays every variant as the scalar loop does (which the engine checks).

10,000 games each side per variant: escape rate, mean turns and mean encounters within 4
standard errors; the scalar loop is held to the engine in test_sim_conformance.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from services.labyrinth import PRESETS, PartyMember
from services.sim import vector
from services.sim.game import play, uniforms
from services.sim.policies import get_policy
from services.sim.runner import SimulationSpec
from services.sim.stats import Tally
from services.sim.vector import run_batch
from services.sim.vpolicies import Blind, Greedy, vector_form
from tests.unit.sim.agreement import assert_agree

GAMES = 10_000
FLEE = {"model": "win_probability", "win": 0.4, "flee": 0.3}
VARIANTS: list[tuple[str, str, int, dict[str, Any]]] = [
    ("blind", "enchanted_forest_v1", 3, {}),
    ("blind", "standard26", 2, {"deal_timing": "round"}),
    ("greedy", "enchanted_forest_v1", 3, {"deal_timing": "round", "failed_action_locks": True}),
    ("greedy", "enchanted_forest_v1", 4, {"action_removal_roll": "as_printed"}),
    ("greedy", "enchanted_forest_v1", 5, {"dead_ends_removed_to": "discard"}),
    (
        "greedy",
        "standard26",
        4,
        {
            "monster_removed_from": "deck",
            "monster_points_reset": False,
            "remove_actions_for_large_party": True,
            "overflow_monster_to": "discard",
        },
    ),
    (
        "greedy",
        "standard26",
        3,
        {"monster_removed_from": "revealed", "monster_points_for_encounter": 1},
    ),
]


@pytest.mark.parametrize(("policy", "preset", "members", "settings"), VARIANTS)
def test_the_vectorised_loop_agrees_with_the_scalar_loop(
    policy: str, preset: str, members: int, settings: dict[str, Any]
) -> None:
    base = PRESETS[preset]
    maze = base.model_copy(update={"settings": base.settings.model_copy(update=settings)})
    party = tuple(PartyMember(id=f"p{i}", name=f"R{i}") for i in range(1, members + 1))
    spec = SimulationSpec(definition=maze, party=party, policy=policy, combat=FLEE)
    compiled = spec.compiled()
    scalar = Tally()
    u = uniforms(np.random.Generator(np.random.PCG64(11)))
    for _ in range(GAMES):
        scalar.add(play(compiled, get_policy(policy), u))
    vectorised = vector_form(get_policy(policy))
    assert vectorised is not None
    assert_agree(run_batch(compiled, vectorised, GAMES, 12), scalar, f"{preset} {settings}")


def test_the_same_seed_gives_the_same_tally_and_games_end_at_the_turn_limit() -> None:
    compiled = SimulationSpec(preset="enchanted_forest_v2", policy="greedy").compiled()
    first = run_batch(compiled, Greedy(), 3_000, 5)
    assert first == run_batch(compiled, Greedy(), 3_000, 5)
    assert first != run_batch(compiled, Greedy(), 3_000, 6)
    capped = run_batch(compiled, Greedy(), 3_000, 5, max_turns=6)
    assert capped.games == 3_000 and max(capped.turns) == 6
    assert 0 < capped.outcomes["turn_limit"] <= capped.turns[6]


def test_a_run_larger_than_a_batch_plays_every_game_in_bounded_batches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compiled = SimulationSpec(preset="enchanted_forest_v1").compiled()
    whole = run_batch(compiled, Blind(), 2_000, 9)
    monkeypatch.setattr(vector, "BATCH_GAMES", 700)
    split = run_batch(compiled, Blind(), 2_000, 9)
    assert split.games == 2_000 and sum(split.turns.values()) == 2_000
    assert split == run_batch(compiled, Blind(), 2_000, 9) and split != whole
    assert_agree(split, whole, "batches of 700")
