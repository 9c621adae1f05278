"""Simulation jobs on a real Celery worker: kills, duplicates and failures."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time

import psutil
import pytest
import redis

from services.sim.runner import SimulationSpec, play_checkpointed, shard_sizes
from services.sim.stats import Tally
from services.sim.tuner import TuningPlan, report
from workers.jobs import Jobs
from workers.tasks import expected_result, submit, submit_tuning

pytestmark = pytest.mark.slow


def wait_for(job: str, jobs: Jobs, timeout: float = 120) -> dict[str, object]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        info = jobs.get(job)
        assert info is not None
        if info["status"] in ("succeeded", "failed", "cancelled"):
            return info
        time.sleep(0.2)
    raise AssertionError(f"job {job} did not finish: {jobs.get(job)}")


def _result(info: dict[str, object]) -> Tally:
    result = info["result"]
    assert isinstance(result, dict)
    return Tally.from_json(result["tally"])


def test_a_job_records_the_same_result_as_an_in_process_run(jobs: Jobs) -> None:
    spec = SimulationSpec(preset="enchanted_forest_v1", games=3_000, seed="same")
    job = submit(jobs, spec, shard_games=1_000)
    info = wait_for(job, jobs)
    assert info["status"] == "succeeded"
    assert _result(info) == expected_result(spec, 1_000)
    assert jobs.result_writes(job) == jobs.result_attempts(job) == 1


def test_a_duplicated_shard_gives_the_identical_result_recorded_once(jobs: Jobs) -> None:
    spec = SimulationSpec(preset="enchanted_forest_v2", policy="greedy", games=2_000, seed="dup")
    job = submit(jobs, spec, shard_games=1_000, duplicate_shard=1)
    info = wait_for(job, jobs)
    assert info["status"] == "succeeded"
    assert _result(info) == expected_result(spec, 1_000)
    assert jobs.result_writes(job) == 1
    # The chord body delivered again (a redelivery after a lost ack) records nothing.
    assert not jobs.finish(job)
    assert jobs.get(job) == info and jobs.result_writes(job) == 1


def test_finishers_racing_on_one_job_record_its_result_once(worker_url: str) -> None:
    spec = SimulationSpec(preset="enchanted_forest_v1", games=400, seed="finishers")
    raced = 0
    for _ in range(5):  # until the guard, not the status check, stopped a finisher
        setup = Jobs(redis.Redis.from_url(worker_url))
        job = setup.create(spec, 2)
        for i, n in enumerate(shard_sizes(spec.games, 2)):
            tally = play_checkpointed(spec, i, n)
            assert tally is not None
            setup.store_shard(job, i, tally)
        finishers = [Jobs(redis.Redis.from_url(worker_url)) for _ in range(8)]
        barrier = threading.Barrier(len(finishers))
        wins: list[bool] = []

        def finish(
            own: Jobs, job: str = job, barrier: threading.Barrier = barrier, wins: list[bool] = wins
        ) -> None:
            barrier.wait(timeout=30)
            wins.append(own.finish(job))

        threads = [threading.Thread(target=finish, args=(f,)) for f in finishers]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert sorted(wins) == [False] * 7 + [True]
        assert setup.result_writes(job) == 1
        assert _result(setup.get(job) or {}) == expected_result(spec, 200)
        raced += setup.result_attempts(job) >= 2
        if raced:
            break
    assert raced, "no two finishers ever reached the write together"


def test_a_failing_shard_fails_the_job_with_no_partial_result(jobs: Jobs) -> None:
    spec = SimulationSpec(preset="enchanted_forest_v1", games=3_000, seed="fail")
    job = submit(jobs, spec, shard_games=1_000, fail_shard=1)
    info = wait_for(job, jobs)
    assert info["status"] == "failed"
    assert info["result"] is None
    assert jobs.result_writes(job) == 0


def test_a_killed_pool_child_reruns_its_shard_and_the_result_is_recorded_once(
    jobs: Jobs, worker: subprocess.Popen[bytes]
) -> None:
    spec = SimulationSpec(preset="enchanted_forest_v1", games=60_000, seed="kill")
    job = submit(jobs, spec, shard_games=60_000)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        info = jobs.get(job)
        assert info is not None
        if isinstance(info["games_done"], int) and info["games_done"] > 0:
            break
        time.sleep(0.05)
    children = psutil.Process(worker.pid).children()
    assert children, "the worker has no pool child"
    for child in children:
        os.kill(child.pid, signal.SIGKILL)
    info = wait_for(job, jobs, timeout=240)
    assert info["status"] == "succeeded"
    assert _result(info) == expected_result(spec, 60_000)
    assert jobs.result_writes(job) == 1


def test_a_small_job_is_not_queued_behind_a_large_one(jobs: Jobs) -> None:
    """Fair share on one worker process: a 1-shard job sent after a 12-shard job that is
    already running finishes while the large one is still running (first in, first out,
    it would wait for all 12 shards)."""
    large_spec = SimulationSpec(preset="enchanted_forest_v1", games=120_000, seed="large")
    large = submit(jobs, large_spec, shard_games=10_000, owner="tenant-a")
    try:
        deadline = time.monotonic() + 60
        while jobs.status(large) != "running":
            assert time.monotonic() < deadline, "the large job never started"
            time.sleep(0.05)
        small_spec = SimulationSpec(preset="enchanted_forest_v1", games=1_000, seed="small")
        small = submit(jobs, small_spec, shard_games=10_000, owner="tenant-b")
        done = wait_for(small, jobs)
        at_that_time = jobs.get(large)
        assert at_that_time is not None
        print(
            f"\nsmall job done with the large one {at_that_time['status']} at "
            f"{at_that_time['games_done']}/{at_that_time['games']} games"
        )
        assert done["status"] == "succeeded"
        assert at_that_time["status"] == "running"
        assert at_that_time["games_done"] < at_that_time["games"] // 2
    finally:
        jobs.cancel(large)
        wait_for(large, jobs)


def test_a_tuning_killed_mid_run_plays_again_and_records_the_in_process_answer_once(
    jobs: Jobs, worker: subprocess.Popen[bytes]
) -> None:
    spec = SimulationSpec(preset="enchanted_forest_v1", seed="tune-kill")
    plan = TuningPlan(
        target="escape_rate", value=0.4, dc_from=9, dc_to=14, games=40_000, seed="tune-kill",
        best=3,
    )  # fmt: skip
    whole = spec.model_copy(update={"games": 6 * 40_000})
    job = submit_tuning(jobs, whole, plan, owner="tenant-a")
    deadline = time.monotonic() + 60
    while (jobs.get(job) or {}).get("games_done", 0) == 0:
        assert time.monotonic() < deadline, "the tuning never started"
        time.sleep(0.01)
    children = psutil.Process(worker.pid).children()
    assert children, "the worker has no pool child"
    for child in children:
        os.kill(child.pid, signal.SIGKILL)
    killed = jobs.get(job)
    assert killed is not None and killed["status"] == "running", killed
    assert 0 < killed["games_done"] < 240_000  # killed mid-run
    info = wait_for(job, jobs, timeout=240)
    assert info["status"] == "succeeded", info
    assert info["games_done"] == 240_000
    expected = plan.run(spec)
    assert expected is not None
    result = info["result"]
    assert isinstance(result, dict) and result["candidates"] == report(expected)
    # A second delivery (after a lost ack) records nothing: the first answer stands.
    assert not jobs.record(job, {"candidates": []})
    assert jobs.get(job) == info
