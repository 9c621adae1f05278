"""Simulation job records in Redis: status, spec, per-shard results and progress, by job id.

Shard results and the job result are written with SET NX, so a redelivered or duplicated
shard cannot record twice; progress writes are best-effort.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import redis

from services.sim.runner import SimulationSpec, shard_sizes
from services.sim.stats import Tally, summarise
from services.store.client import AnyRedis

TTL = 7 * 86_400
TERMINAL = ("succeeded", "failed", "cancelled")


def _s(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def key(job: str, *parts: str) -> str:
    """The key of a job's record or of one of its parts."""
    return ":".join(("sim", "job", job, *parts))


class Jobs:
    """Reads and writes job records on one Redis client."""

    def __init__(self, client: AnyRedis) -> None:
        self.r = client

    def create(
        self,
        spec: SimulationSpec,
        shards: int,
        job: str | None = None,
        owner: str = "",
        kind: str = "simulation",
        plan: dict[str, Any] | None = None,
    ) -> str:
        """Record a queued job (owned by tenant `owner`, if any) and return its id.

        `kind` says what the job is ("simulation", "tuning"); `plan` is what a job other
        than a plain simulation needs besides its spec (a tuning's target and
        configurations). A tuning is one shard of all its configurations' games."""
        job = job or uuid.uuid4().hex
        sizes = shard_sizes(spec.games, shards)
        self.r.hset(
            key(job),
            mapping={
                "status": "queued",
                "spec": spec.model_dump_json(),
                "shards": len(sizes),
                "sizes": json.dumps(sizes),
                "error": "",
                "owner": owner,
                "kind": kind,
                "plan": json.dumps(plan or {}),
            },
        )
        self.r.expire(key(job), TTL)
        return job

    def register(self, owner: str, job: str) -> None:
        """Count `job` among `owner`'s jobs (see `active`)."""
        self.r.sadd(key("tenant", owner), job)
        self.r.expire(key("tenant", owner), TTL)

    def active(self, owner: str) -> int:
        """How many of `owner`'s registered jobs are queued or running (the finished ones
        are forgotten on the way)."""
        members = [_s(j) for j in self.r.smembers(key("tenant", owner))]
        done = [j for j in members if self.status(j) in (None, *TERMINAL)]
        if done:
            self.r.srem(key("tenant", owner), *done)
        return len(members) - len(done)

    def get(self, job: str) -> dict[str, Any] | None:
        """The job's status, progress and (when done) summary, or None if unknown."""
        raw = {_s(k): _s(v) for k, v in self.r.hgetall(key(job)).items()}
        if not raw:
            return None
        sizes = json.loads(raw["sizes"])
        progress = {int(k): int(v) for k, v in self.r.hgetall(key(job, "progress")).items()}
        done = sum(min(progress.get(i, 0), n) for i, n in enumerate(sizes))
        # Shown once the status (read above) says succeeded: `record` writes the result,
        # then the status, so a reader between the two would see a result on a job still
        # running.
        result = self.r.get(key(job, "result")) if raw["status"] == "succeeded" else None
        return {
            "id": job,
            "kind": raw.get("kind", "simulation"),
            "status": raw["status"],
            "games": sum(sizes),
            "games_done": done,
            "progress": done / max(1, sum(sizes)),
            "shards": int(raw["shards"]),
            "error": raw["error"] or None,
            "result": None if result is None else json.loads(result),
        }

    def owner(self, job: str) -> str | None:
        """The tenant that owns the job ("" when none), or None if the job is unknown."""
        raw = self.r.hget(key(job), "owner")
        if raw is None:
            return "" if self.r.exists(key(job)) else None
        return _s(raw)

    def plan(self, job: str) -> dict[str, Any]:
        """What the job needs besides its spec (see `create`)."""
        raw = self.r.hget(key(job), "plan")
        plan: dict[str, Any] = json.loads(raw) if raw else {}
        return plan

    def record(self, job: str, body: dict[str, Any]) -> bool:
        """Record the job's result once and mark it succeeded; False if it was already
        recorded or the job ended otherwise."""
        if self.status(job) in TERMINAL:
            return False
        # Counted before the guarded write: how many finishers got this far (a redelivered
        # or duplicated chord body), against how many wrote (SET NX lets one through).
        self._count(job, "result_attempts")
        if not self.r.set(key(job, "result"), json.dumps(body), nx=True, ex=TTL):
            return False
        self._count(job, "result_writes")
        self.set_status(job, "succeeded")
        return True

    def status(self, job: str) -> str | None:
        """The job's status alone."""
        raw = self.r.hget(key(job), "status")
        return None if raw is None else _s(raw)

    def set_status(self, job: str, status: str, error: str = "") -> None:
        """Move the job to `status` unless it is already terminal."""
        current = self.status(job)
        if current in TERMINAL:
            return
        self.r.hset(key(job), mapping={"status": status, "error": error})

    def cancel(self, job: str) -> bool:
        """Cancel a job not yet finished; shards stop at their next checkpoint."""
        if self.status(job) in (None, *TERMINAL):
            return False
        self.set_status(job, "cancelled")
        return True

    def progress(self, job: str, shard: int, games: int) -> None:
        """Best-effort progress: a failed write must not fail the shard."""
        try:
            self.r.hset(key(job, "progress"), str(shard), games)
            self.r.expire(key(job, "progress"), TTL)
        except redis.RedisError:
            pass

    def store_shard(self, job: str, shard: int, tally: Tally) -> bool:
        """Record a shard's tally once (a rerun with the same seed finds it there)."""
        return bool(
            self.r.set(key(job, "shard", str(shard)), json.dumps(tally.to_json()), nx=True, ex=TTL)
        )

    def shard(self, job: str, shard: int) -> Tally | None:
        """A recorded shard tally."""
        raw = self.r.get(key(job, "shard", str(shard)))
        return None if raw is None else Tally.from_json(json.loads(raw))

    def finish(self, job: str) -> bool:
        """Merge every shard into the job's result, once; False if not recorded now."""
        shards = int(self.r.hget(key(job), "shards") or 0)
        total = Tally()
        for i in range(shards):
            t = self.shard(job, i)
            if t is None:
                self.set_status(job, "failed", f"shard {i} has no result")
                return False
            total = total.merge(t)
        return self.record(job, {"summary": summarise(total), "tally": total.to_json()})

    def _count(self, job: str, name: str) -> None:
        self.r.incr(key(job, name))
        self.r.expire(key(job, name), TTL)

    def result_writes(self, job: str) -> int:
        """How many times the job's result was recorded (1 when done right)."""
        return int(self.r.get(key(job, "result_writes")) or 0)

    def result_attempts(self, job: str) -> int:
        """How many finishers tried to record the job's result (at least the writes)."""
        return int(self.r.get(key(job, "result_attempts")) or 0)
