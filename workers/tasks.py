"""Simulation tasks: a job is a chord of seeded shards whose body merges the stored tallies."""

from __future__ import annotations

from functools import cache
from typing import Any

from celery import chord
from celery.result import AsyncResult

from infra.settings import Settings
from services.jsoncodec import STORED
from services.sim.runner import SimulationSpec, play_checkpointed, shard_sizes
from services.sim.stats import Tally
from services.sim.tuner import TuningPlan, report
from services.store.client import store_client
from workers.app import app
from workers.jobs import TERMINAL, Jobs, key

DEFAULT_SHARD_GAMES = 50_000
# Fair share: a job's shards are queued at a priority from its size (the Redis broker
# pops priority 0 first, then 3, 6, 9), so a small job is taken before the rest of a
# large one that was queued earlier: it waits for the shards already running, not for
# the whole large job. With each tenant's concurrent jobs capped (api/simulations.py),
# no tenant can hold the queue.
PRIORITIES = ((1, 0), (4, 3), (10, 6))  # (at most this many shards, priority); else 9


def shard_priority(shards: int) -> int:
    """The broker priority of each shard of a job of `shards` shards (0 runs first)."""
    return next((p for most, p in PRIORITIES if shards <= most), 9)


@cache
def jobs() -> Jobs:
    """The job records on the workers' Redis (one client per process)."""
    settings = Settings()
    return Jobs(
        store_client(settings.workers_redis_url, settings.redis_timeouts, "the workers' Redis")
    )


class ShardFailed(RuntimeError):
    """A shard asked to fail (tests) or could not run."""


@app.task(name="sim.run_shard", acks_late=True, reject_on_worker_lost=True)
def run_shard(job: str, index: int, fail: bool = False) -> dict[str, Any]:
    """Play one shard with its own seed and record its tally by reference."""
    store = jobs()
    if fail:
        raise ShardFailed(f"shard {index} was told to fail")
    existing = store.shard(job, index)
    if existing is not None:  # a redelivered or duplicated shard: same seed, same tally
        return {"job": job, "shard": index, "games": existing.games}
    raw = store.r.hget(f"sim:job:{job}", "spec")
    if raw is None:
        raise ShardFailed(f"unknown job {job}")
    spec = SimulationSpec.model_validate_json(raw, context=STORED)  # accepted when queued
    size = shard_sizes(spec.games, int(store.r.hget(f"sim:job:{job}", "shards") or 1))[index]
    store.set_status(job, "running")
    tally = play_checkpointed(
        spec,
        index,
        size,
        lambda: store.status(job) == "cancelled",
        lambda games: store.progress(job, index, games),
    )
    if tally is None:
        return {"job": job, "shard": index, "games": 0, "cancelled": True}
    store.store_shard(job, index, tally)
    return {"job": job, "shard": index, "games": tally.games}


def expected_result(spec: SimulationSpec, shard_games: int = 0) -> Tally:
    """What a job for `spec` records, computed in-process (for tests and the CLI)."""
    shards = max(1, -(-spec.games // (shard_games or DEFAULT_SHARD_GAMES)))
    total = Tally()
    for i, n in enumerate(shard_sizes(spec.games, shards)):
        t = play_checkpointed(spec, i, n)
        assert t is not None
        total = total.merge(t)
    return total


@app.task(name="sim.run_tuning", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def run_tuning(job: str) -> dict[str, Any]:
    """Play a tuning's configurations in checkpoints (progress, cancellation) and record
    its best candidates once. A redelivered tuning plays again from its seed, the same."""
    store = jobs()
    raw = store.r.hget(key(job), "spec")
    if raw is None:
        raise ShardFailed(f"unknown job {job}")
    if store.status(job) in TERMINAL:
        return {"job": job, "skipped": store.status(job)}
    spec = SimulationSpec.model_validate_json(raw, context=STORED)  # accepted when queued
    plan = TuningPlan.model_validate(store.plan(job))
    store.set_status(job, "running")
    try:
        found = plan.run(
            spec,
            cancelled=lambda: store.status(job) == "cancelled",
            progress=lambda games: store.progress(job, 0, games),
        )
    except Exception as exc:
        store.set_status(job, "failed", str(exc))
        raise
    if found is None:
        return {"job": job, "cancelled": True}
    store.record(job, {"candidates": report(found)})
    return {"job": job}


def submit_tuning(store: Jobs, spec: SimulationSpec, plan: TuningPlan, owner: str = "") -> str:
    """Create a tuning job (its spec's `games`: every configuration's games in all) and
    queue it at the priority of its size, like a simulation's shards."""
    job = store.create(spec, 1, owner=owner, kind="tuning", plan=plan.model_dump(mode="json"))
    shards = max(1, -(-spec.games // DEFAULT_SHARD_GAMES))
    run_tuning.apply_async((job,), priority=shard_priority(shards))
    return job


@app.task(name="sim.finish_job", acks_late=True, reject_on_worker_lost=True)
def finish_job(_refs: list[dict[str, Any]], job: str) -> dict[str, Any]:
    """Chord body: merge the stored shard tallies into the job's result (once)."""
    jobs().finish(job)
    return {"job": job}


@app.task(name="sim.fail_job")
def fail_job(request: Any, exc: Any, traceback: Any, job: str) -> None:
    """Chord errback: the job failed; no result is recorded."""
    jobs().set_status(job, "failed", str(exc))


def submit(
    store: Jobs,
    spec: SimulationSpec,
    shard_games: int = DEFAULT_SHARD_GAMES,
    fail_shard: int | None = None,
    duplicate_shard: int | None = None,
    owner: str = "",
) -> str:
    """Create a job (owned by tenant `owner`) and send its chord.

    The test-only knobs fail or duplicate a shard.
    """
    shards = max(1, -(-spec.games // shard_games))
    job = store.create(spec, shards, owner=owner)
    sizes = shard_sizes(spec.games, shards)
    priority = shard_priority(len(sizes))
    header = [
        run_shard.si(job, i, fail=(i == fail_shard)).set(priority=priority)
        for i in range(len(sizes))
    ]
    if duplicate_shard is not None:
        header.append(run_shard.si(job, duplicate_shard).set(priority=priority))
    sent = chord(header)(finish_job.s(job).on_error(fail_job.s(job=job)))
    _unfollow(sent)
    return job


def _unfollow(sent: AsyncResult) -> None:
    """Stop following the chord's shard results in this process; nobody here waits on them.

    Sending a chord on the Redis backend subscribes the sender to each shard's result
    (pub/sub) and keeps a strong reference to a result object per shard in the backend
    (RedisBackend.apply_chord builds a GroupResult that waits on them). In a long-lived
    sender (the API) both would stay until each shard's result arrived, and an unsubscribe
    left to the garbage collector can run after the Redis stopped, when it retries for
    20 s and logs CRITICAL. Dropped here, while the Redis is known to be up.
    """
    backend = sent.backend
    pending = getattr(backend, "_pending_results", ())  # (strong, weak): task id → waiters
    consumer = getattr(backend, "result_consumer", None)
    for result in getattr(sent.parent, "results", None) or []:
        for waiting in pending:
            waiting.pop(result.id, None)
        if consumer is not None:
            consumer.cancel_for(result.id)
