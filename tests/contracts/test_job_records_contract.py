"""The simulation job records (workers/jobs.py) on one Redis and on a Redis Cluster.

Every operation of `Jobs` is a single-key command (or a guarded single-key write), so a
cluster client runs it on the key's master; what must hold there as on one Redis: a
result is recorded once however many finishers race, a finished job cannot be cancelled,
and a tenant's active count forgets finished jobs.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator

import pytest

from services.sim.runner import SimulationSpec
from services.store.client import AnyRedis, connect
from workers import jobs as job_records
from workers.jobs import Jobs

# Runs on one Redis and on a three-master Redis Cluster (tests/contracts/conftest.py).
ON_CLUSTER = True

SPEC = SimulationSpec(preset="enchanted_forest_v1", policy="blind", seed="jobs", games=400)


class Recorded(Jobs):
    """Job records that remember which jobs (and tenants) the test made, to remove them."""

    def __init__(self, client: AnyRedis) -> None:
        super().__init__(client)
        self.created: list[str] = []


@pytest.fixture
def jobs(redis_url: str) -> Iterator[Recorded]:
    client = connect(redis_url)
    made = Recorded(client)
    yield made
    for job in made.created:
        for key in client.scan_iter(match=f"sim:job:{job}*", count=1000):
            client.delete(key)
    client.close()


def _create(jobs: Recorded, owner: str = "") -> str:
    job = jobs.create(SPEC, 4, job=uuid.uuid4().hex, owner=owner, plan={"k": 1})
    jobs.created.append(job)
    return job


def test_a_job_is_recorded_with_its_progress(jobs: Recorded) -> None:
    job = _create(jobs, owner="acme")
    assert (jobs.status(job), jobs.owner(job), jobs.plan(job)) == ("queued", "acme", {"k": 1})
    jobs.set_status(job, "running")
    jobs.progress(job, 0, 100)
    jobs.progress(job, 3, 50)
    found = jobs.get(job)
    assert found is not None
    assert (found["status"], found["games"], found["games_done"], found["shards"]) == (
        "running",
        400,
        150,
        4,
    )
    assert jobs.get("no-such-job") is None and jobs.owner("no-such-job") is None


def test_racing_finishers_record_the_result_once(jobs: Recorded) -> None:
    job = _create(jobs)
    start = threading.Barrier(8)
    wrote: list[bool] = []
    lock = threading.Lock()

    def finisher(i: int) -> None:
        start.wait()
        done = jobs.record(job, {"finisher": i})
        with lock:
            wrote.append(done)

    threads = [threading.Thread(target=finisher, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(wrote) == [False] * 7 + [True]
    assert jobs.result_writes(job) == 1 and jobs.result_attempts(job) >= 1
    found = jobs.get(job)
    assert found is not None and found["status"] == "succeeded"
    assert found["result"] is not None and "finisher" in found["result"]
    assert not jobs.cancel(job)  # finished: stays succeeded
    assert jobs.status(job) == "succeeded"


def test_a_result_is_shown_only_with_its_job_succeeded(jobs: Recorded) -> None:
    # `record` writes the result, then the status: a reader between the two writes must
    # not see a result on a job still running (a tuning's poller did, under load).
    job = _create(jobs)
    jobs.set_status(job, "running")
    jobs.r.set(job_records.key(job, "result"), json.dumps({"early": True}))  # the first of the two
    found = jobs.get(job)
    assert found is not None and (found["status"], found["result"]) == ("running", None)
    jobs.set_status(job, "succeeded")  # the second
    found = jobs.get(job)
    assert found is not None and found["result"] == {"early": True}


def test_a_tenants_active_jobs_forget_the_finished_ones(jobs: Recorded) -> None:
    owner = "t" + uuid.uuid4().hex[:8]
    made = [_create(jobs, owner) for _ in range(3)]
    for job in made:
        jobs.register(owner, job)
    jobs.created.append(f"tenant:{owner}")
    assert jobs.active(owner) == 3
    assert jobs.cancel(made[0])
    jobs.record(made[1], {"done": True})
    assert jobs.active(owner) == 1
