"""A real worker's task metrics reach the API's /metrics through Redis; its logs are JSON."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from prometheus_client.parser import text_string_to_metric_families

from api.app import create_app
from infra.settings import Settings
from services.sim.runner import SimulationSpec
from workers.app import app as celery_app
from workers.app import release
from workers.jobs import Jobs
from workers.task_metrics import DURATIONS_KEY, TASKS_KEY, TICK_LAG_KEY
from workers.tasks import submit

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
FLAGS = ["--pool", "prefork", "--without-gossip", "--without-mingle", "-l", "info"]


@pytest.fixture(scope="module")
def worker_log(worker_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A real prefork worker (as in conftest's `worker`) whose output is kept in a file."""
    client = redis.Redis.from_url(worker_url)
    client.delete("celery", "unacked", "unacked_index", TASKS_KEY, DURATIONS_KEY, TICK_LAG_KEY)
    log = tmp_path_factory.mktemp("worker-log") / "worker.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "workers.app", "worker", "-c", "1", *FLAGS],
            env={**os.environ, "DAEDALUS_REDIS_URL": worker_url},
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    yield log
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def wait_done(jobs: Jobs, job: str, timeout: float = 120) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        info = jobs.get(job)
        assert info is not None
        if info["status"] in ("succeeded", "failed", "cancelled"):
            return str(info["status"])
        time.sleep(0.2)
    raise AssertionError(f"job {job} did not finish: {jobs.get(job)}")


def scrape(settings: Settings) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The API's /metrics, in-process: (sample name, labels) → value."""
    transport = httpx.ASGITransport(app=create_app(settings))

    async def get() -> str:
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            response = await http.get("/metrics")
            assert response.status_code == 200
            return response.text

    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(asyncio.run(get()))
        for sample in family.samples
    }


def test_succeeded_and_failed_tasks_show_in_the_apis_metrics(
    worker_url: str, worker_log: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    jobs = Jobs(redis.Redis.from_url(worker_url))
    request.addfinalizer(jobs.r.close)
    request.addfinalizer(lambda: release(celery_app))
    ok = submit(jobs, SimulationSpec(preset="enchanted_forest_v1", games=2_000, seed="m1"), 1_000)
    bad = submit(
        jobs, SimulationSpec(preset="enchanted_forest_v1", games=2_000, seed="m2"), 1_000, 1
    )
    assert wait_done(jobs, ok) == "succeeded" and wait_done(jobs, bad) == "failed"
    # The API reads the workers' Redis: DAEDALUS_REDIS_URL, as the workers do.
    settings = Settings.model_validate(
        {
            "environment": "test",
            "DAEDALUS_REDIS_URL": worker_url,
            "DAEDALUS_DATA_DIR": str(tmp_path),
        }
    )
    shard = "sim.run_shard"

    def count(outcome: str, task: str = shard) -> float:
        return samples.get(("daedalus_tasks_total", (("outcome", outcome), ("task", task))), 0)

    deadline = time.monotonic() + 30
    while True:  # the last postrun signal may land just after the job's status
        samples = scrape(settings)
        if count("succeeded") >= 3 and count("succeeded", "sim.finish_job") >= 1:
            break
        assert time.monotonic() < deadline, samples
        time.sleep(0.2)
    assert count("failed") == 1 and count("run") == 4 and count("retried") == 0
    assert count("succeeded", "sim.finish_job") == 1
    durations = samples[("daedalus_task_duration_seconds_count", (("task", shard),))]
    assert durations == 4
    assert (
        samples[("daedalus_task_duration_seconds_bucket", (("le", "+Inf"), ("task", shard)))] == 4
    )

    # The worker's own lines are JSON, each task's tagged with its id, name and job.
    lines = [json.loads(t) for t in worker_log.read_text().splitlines() if t.startswith("{")]
    tagged: list[dict[str, Any]] = [ln for ln in lines if ln.get("task") == shard]
    assert {ln["job_id"] for ln in tagged} == {ok, bad}
    assert all(ln["task_id"] for ln in tagged)
    errors = [ln for ln in tagged if ln["level"] == "error"]
    assert errors and all(ln["job_id"] == bad for ln in errors)
    (failure,) = [ln for ln in errors if ln["logger"] == "celery.app.trace"]
    assert "ShardFailed: shard 1 was told to fail" in failure["error"]
