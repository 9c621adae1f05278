"""Run batches of games: a simulation spec, seeded shards, and their merged summary."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from services.labyrinth import PRESETS, MazeDefinition, PartyMember
from services.sim.combat import CombatModel, combat_from_spec
from services.sim.game import play, uniforms
from services.sim.model import CompiledMaze, compile_maze
from services.sim.policies import get_policy
from services.sim.stats import Tally
from services.sim.vector import run_batch
from services.sim.vpolicies import vector_form

MAX_GAMES = 10_000_000
CHECKPOINT = 2_000  # games between progress reports and cancellation checks


DEFAULT_PRESET = "enchanted_forest_v2"  # the maze played when none is given


class SimulationSpec(BaseModel):
    """What to simulate: a maze (definition or preset), a party, a policy, a combat model."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    definition: MazeDefinition | None = None
    preset: str | None = None
    dc: int | None = Field(default=None, ge=1, le=60)
    party: tuple[PartyMember, ...] = Field(
        default=(
            PartyMember(id="p1", name="Runner 1"),
            PartyMember(id="p2", name="Runner 2"),
            PartyMember(id="p3", name="Runner 3"),
        ),
        min_length=1,
        max_length=8,
    )
    policy: str = "blind"
    combat: dict[str, Any] = Field(default_factory=lambda: {"model": "win_probability", "win": 0.5})
    games: int = Field(default=10_000, ge=1, le=MAX_GAMES)
    seed: str = "daedalus"
    max_turns: int = Field(default=500, ge=1, le=10_000)

    def maze(self) -> MazeDefinition:
        """The definition played (a preset's, with the DC override applied)."""
        if self.definition is not None:
            base = self.definition
        else:
            name = self.preset or DEFAULT_PRESET
            if name not in PRESETS:
                raise ValueError(f"unknown preset {name!r}")
            base = PRESETS[name]
        return base if self.dc is None else base.model_copy(update={"dc": self.dc})

    def combat_model(self) -> CombatModel:
        """The configured combat model."""
        return combat_from_spec(self.combat)

    def compiled(self) -> CompiledMaze:
        """The maze compiled for the fast loop."""
        return compile_maze(self.maze(), self.party, self.combat_model())


def shard_seed(seed: str, index: int) -> int:
    """A 64-bit seed for shard `index` of a job seeded `seed` (independent streams)."""
    return int.from_bytes(hashlib.sha256(f"{seed}/{index}".encode()).digest()[:8], "big")


def run_games(
    compiled: CompiledMaze, policy: str, games: int, seed: int, max_turns: int = 500
) -> Tally:
    """Play `games` games from one seed; the same arguments give the same tally.

    The built-in policies play vectorised (`vector.py`); a policy registered only in
    scalar form plays game by game (`game.py`), by the same rules.
    """
    chosen = get_policy(policy)
    vectorised = vector_form(chosen)
    if vectorised is not None:
        return run_batch(compiled, vectorised, games, seed, max_turns)
    u = uniforms(np.random.Generator(np.random.PCG64(seed)))
    tally = Tally()
    for _ in range(games):
        tally.add(play(compiled, chosen, u, max_turns))
    return tally


def shard_sizes(games: int, shards: int) -> list[int]:
    """Split `games` over `shards` as evenly as possible."""
    base, extra = divmod(games, shards)
    return [base + (1 if i < extra else 0) for i in range(shards) if base or i < extra]


def simulate(spec: SimulationSpec, shards: int = 1) -> Tally:
    """Run a whole spec in-process (the same shards and seeds a worker job uses)."""
    compiled = spec.compiled()
    total = Tally()
    for i, n in enumerate(shard_sizes(spec.games, shards)):
        total = total.merge(
            run_games(compiled, spec.policy, n, shard_seed(spec.seed, i), spec.max_turns)
        )
    return total


def play_checkpointed(
    spec: SimulationSpec,
    index: int,
    size: int,
    cancelled: Callable[[], bool] = lambda: False,
    progress: Callable[[int], None] = lambda games: None,
) -> Tally | None:
    """Shard `index` of `spec` (`size` games) in sub-seeded checkpoints of `CHECKPOINT`
    games: cancellation is checked and progress reported between them, and a rerun is
    identical. None if cancelled."""
    compiled = spec.compiled()
    tally = Tally()
    for chunk, start in enumerate(range(0, size, CHECKPOINT)):
        if cancelled():
            return None
        n = min(CHECKPOINT, size - start)
        seed = shard_seed(f"{spec.seed}/{index}", chunk)
        tally = tally.merge(run_games(compiled, spec.policy, n, seed, spec.max_turns))
        progress(tally.games)
    return tally
