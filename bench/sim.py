"""Simulator benchmark (issues 7 and 18): games/s on one core, printed as JSON lines.

* `blind` on Enchanted Forest v1 with `services/sim`, against the two strongest simple
  alternatives of the same rules kept in `bench/baselines/`: a numpy-vectorised
  simulator (target: at least as fast) and a specialised pure-Python loop (target: at
  least twice as fast). Each is timed in the same run, alternately, best of `REPEATS`.
* `greedy` (full rules, actions) on Enchanted Forest v2 with `services/sim`, informative.
* the wall time of a 10^6-game `blind` job (20 shards of 50,000) on two Celery worker
  processes (one worker, `-c 2`) against a temporary embedded Redis, from submission to
  the recorded result; the worker starts (and a warm-up job runs) before the clock.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.baselines import sim_loop, sim_numpy
from services.sim.runner import SimulationSpec, run_games
from services.store.connection import start_embedded

JOB_GAMES = 1_000_000
JOB_WORKERS = 2
JOB_TIMEOUT = 100.0  # seconds: the bench stays bounded

FAST_GAMES = 20_000
REPEATS = 5


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
                "ratio": None if base is None else round(value / base, 2),
                "target": target,
            }
        )
    )


def _wait(jobs: object, job: str, timeout: float) -> str:
    from workers.jobs import Jobs

    assert isinstance(jobs, Jobs)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = jobs.status(job)
        if status in ("succeeded", "failed", "cancelled"):
            return str(status)
        time.sleep(0.05)
    jobs.cancel(job)
    return "timeout"


def job_on_two_workers() -> None:
    """Time a 10^6-game job on two worker processes; print its line (seconds)."""
    with tempfile.TemporaryDirectory() as tmp:
        conn = start_embedded(Path(tmp))
        os.environ["DAEDALUS_REDIS_URL"] = conn.url
        from workers.app import app, celery_url
        from workers.jobs import Jobs
        from workers.tasks import submit

        app.conf.update(broker_url=celery_url(conn.url), result_backend=celery_url(conn.url))
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "workers.app", "worker",
             "-c", str(JOB_WORKERS), "--pool", "prefork", "--without-gossip",
             "--without-mingle", "-l", "error"],
            env={**os.environ, "DAEDALUS_REDIS_URL": conn.url},
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            jobs = Jobs(conn.client)
            spec = SimulationSpec(preset="enchanted_forest_v1", policy="blind", seed="bench")
            warm = submit(jobs, spec.model_copy(update={"games": 2 * JOB_WORKERS}), 2)
            _wait(jobs, warm, 30)
            t = time.perf_counter()
            job = submit(jobs, spec.model_copy(update={"games": JOB_GAMES}), 50_000)
            status = _wait(jobs, job, JOB_TIMEOUT)
            elapsed = time.perf_counter() - t
        finally:
            worker.send_signal(signal.SIGTERM)
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
            conn.close()
    print(
        json.dumps(
            {
                "bench": "sim",
                "case": f"10^6-game blind job, {JOB_WORKERS} workers ({status})",
                "unit": "s",
                "value": round(elapsed, 2) if status == "succeeded" else None,
                "baseline": None,
                "baseline_value": None,
                "ratio": None,
                "target": None,
            }
        )
    )


def _best_rates(runs: dict[str, object]) -> dict[str, float]:
    """Games/s of each run, alternating runs, each keeping its best of REPEATS."""
    best = dict.fromkeys(runs, 0.0)
    for _ in range(REPEATS):
        for name, run in runs.items():
            best[name] = max(best[name], _rate(FAST_GAMES, run))
    return best


def main() -> None:
    """Time each case and print its line."""
    compiled = SimulationSpec(preset="enchanted_forest_v1", policy="blind").compiled()
    rates = _best_rates(
        {
            "ours": lambda: run_games(compiled, "blind", FAST_GAMES, 1),
            "numpy": lambda: sim_numpy.run(FAST_GAMES, 1),
            "loop": lambda: sim_loop.run(FAST_GAMES, 1),
        }
    )
    ours = rates["ours"]
    _line("blind, one core", ours, "numpy-vectorised reference", rates["numpy"], 1.0)
    _line("blind, one core", ours, "specialised pure-Python loop", rates["loop"], 2.0)
    greedy = SimulationSpec(preset="enchanted_forest_v2", policy="greedy").compiled()
    rate = _rate(FAST_GAMES, lambda: run_games(greedy, "greedy", FAST_GAMES, 1))
    _line("greedy, full rules, one core", rate, None, None, None)
    job_on_two_workers()


if __name__ == "__main__":
    main()
