"""Simulator benchmark (issue 7): games/s on one core, printed as JSON lines.

* `blind` on Enchanted Forest v1 with the fast loop, against the event-sourced engine
  (pure Python, the same rules) driven by the same policy, timed in the same run;
* `greedy` (full rules, actions) with the fast loop, informative.

The baseline is the engine itself, not a separate pure-Python re-implementation; the
10^6-game job on two workers is not measured here yet.
"""

from __future__ import annotations

import gc
import json
import time

from services.sim.policies import get_policy
from services.sim.reference import play_engine
from services.sim.runner import SimulationSpec, run_games

FAST_GAMES = 20_000
ENGINE_GAMES = 500


def _rate(n: int, run: object) -> float:
    gc.disable()
    t = time.perf_counter()
    assert callable(run)
    run()
    elapsed = time.perf_counter() - t
    gc.enable()
    return n / elapsed


def _line(
    case: str, value: float, baseline: str | None, base: float | None, target: float | None
) -> None:
    print(
        json.dumps(
            {
                "bench": "sim",
                "case": case,
                "unit": "games/s",
                "value": round(value, 1),
                "baseline": baseline,
                "baseline_value": None if base is None else round(base, 1),
                "ratio": None if base is None else round(value / base, 1),
                "target": target,
            }
        )
    )


def main() -> None:
    """Time each case and print its line."""
    spec = SimulationSpec(preset="enchanted_forest_v1", policy="blind")
    compiled, maze, combat = spec.compiled(), spec.maze(), spec.combat_model()
    blind = get_policy("blind")
    fast = _rate(FAST_GAMES, lambda: run_games(compiled, "blind", FAST_GAMES, 1))
    engine = _rate(
        ENGINE_GAMES,
        lambda: [play_engine(maze, spec.party, blind, combat, str(i)) for i in range(ENGINE_GAMES)],
    )
    _line("blind, one core", fast, "event-sourced engine (pure Python)", engine, 20.0)
    greedy = SimulationSpec(preset="enchanted_forest_v2", policy="greedy").compiled()
    rate = _rate(FAST_GAMES, lambda: run_games(greedy, "greedy", FAST_GAMES, 1))
    _line("greedy, full rules, one core", rate, None, None, None)


if __name__ == "__main__":
    main()
