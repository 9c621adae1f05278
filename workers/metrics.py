"""Worker observability: task metrics kept in Redis for the API to expose, JSON logs, tracing.

Every Celery process (each prefork child, in every container) adds its counts to three
hashes on the workers' Redis (`DAEDALUS_REDIS_URL`, else `REDIS_URL`: the settings'
`workers_redis_url`), and the API reads
them when Prometheus scrapes its /metrics (api/metrics.py): one scrape target however
many workers run, and counts that outlive the pods that made them. Writes are
best-effort: a Redis error never fails a task (it is logged, and writes pause a while).

The layout of the hashes, and how the API reads them: workers/task_metrics.py.

Connected by workers/app.py (`connect_signals`), so every worker and beat process also
logs JSON lines (infra/logs.py; in a task: `task_id`, `task`, and `tenant`, `campaign_id`
or `job_id` from its arguments) and, when tracing is on, traces each pool process
(infra/telemetry.py).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Mapping
from typing import Any

import redis
from celery import signals
from redis.backoff import NoBackoff
from redis.retry import Retry

from infra import telemetry
from infra.logs import LogContext, configure_logging, log_context_var
from infra.settings import Settings
from workers.task_metrics import (
    DURATION_BUCKETS,
    DURATIONS_KEY,
    SEP,
    TASKS_KEY,
    TICK_LAG_BUCKETS,
    TICK_LAG_KEY,
    bucket_field,
)

log = logging.getLogger(__name__)

PAUSE_SECONDS = 30.0  # no writes for this long after a Redis error


def quick_client(url: str) -> redis.Redis:
    """A client that gives up fast (one immediate retry): metrics never hold anything up."""
    return redis.Redis.from_url(
        url, socket_timeout=2, socket_connect_timeout=2, retry=Retry(NoBackoff(), 1)
    )


class Recorder:
    """Best-effort writes of this process's observations to the workers' Redis."""

    def __init__(self, client: redis.Redis | None = None) -> None:
        self.client = client
        self._paused_until = 0.0

    def _redis(self) -> redis.Redis:
        if self.client is None:
            self.client = quick_client(Settings().workers_redis_url)
        return self.client

    def write(self, ops: Callable[[Any], None]) -> None:
        """Run `ops` on a pipeline and send it; never raise."""
        if time.monotonic() < self._paused_until:
            return
        try:
            pipe = self._redis().pipeline(transaction=False)
            ops(pipe)
            pipe.execute()
        except (redis.RedisError, OSError) as exc:
            self._paused_until = time.monotonic() + PAUSE_SECONDS
            log.warning("task metrics not recorded (paused %gs): %r", PAUSE_SECONDS, exc)

    def count(self, task: str, outcome: str) -> None:
        """One more `outcome` for `task`."""
        self.write(lambda pipe: pipe.hincrby(TASKS_KEY, f"{task}{SEP}{outcome}", 1))

    def finished(self, task: str, seconds: float, outcome: str | None) -> None:
        """A run of `task` took `seconds` (and ended in `outcome`, when given)."""

        def ops(pipe: Any) -> None:
            if outcome is not None:
                pipe.hincrby(TASKS_KEY, f"{task}{SEP}{outcome}", 1)
            pipe.hincrbyfloat(DURATIONS_KEY, f"{task}{SEP}sum", seconds)
            pipe.hincrby(DURATIONS_KEY, f"{task}{SEP}count", 1)
            bucket = bucket_field(seconds, DURATION_BUCKETS)
            pipe.hincrby(DURATIONS_KEY, f"{task}{SEP}le{SEP}{bucket}", 1)

        self.write(ops)

    def tick_lag(self, seconds: float) -> None:
        """A campaign downtime was applied `seconds` after it fell due."""

        def ops(pipe: Any) -> None:
            pipe.hincrbyfloat(TICK_LAG_KEY, "sum", seconds)
            pipe.hincrby(TICK_LAG_KEY, "count", 1)
            pipe.hincrby(TICK_LAG_KEY, f"le{SEP}{bucket_field(seconds, TICK_LAG_BUCKETS)}", 1)

        self.write(ops)


recorder = Recorder()


def observe_tick_lag(seconds: float) -> None:
    """Record how late a campaign tick was applied, in seconds after it fell due."""
    if math.isfinite(seconds):
        recorder.tick_lag(max(0.0, seconds))


# --- Celery signals ---

_started: dict[str, float] = {}  # task id → when it started, in this process
# Which positional arguments of a task name what it concerns (for its log lines).
_POSITIONAL = {"campaign.tick": ("tenant", "campaign_id"), "sim.run_shard": ("job_id",)}
_KEYWORDS = {"tenant": "tenant", "campaign_id": "campaign_id", "job": "job_id"}


def _name(task: Any) -> str:
    return str(getattr(task, "name", None) or "unknown")


def _eager(task: Any) -> bool:
    # Run in the caller's process (task.apply, tests): not the fleet's work.
    return bool(getattr(getattr(task, "request", None), "is_eager", False))


def task_fields(name: str, task_id: str | None, args: Any, kwargs: Any) -> dict[str, object]:
    """The log context of a task: its id and name, and what its arguments name."""
    fields: dict[str, object] = {"task_id": task_id, "task": name}
    if isinstance(args, list | tuple):
        fields.update(zip(_POSITIONAL.get(name, ()), args, strict=False))
    if isinstance(kwargs, Mapping):
        fields.update({_KEYWORDS[k]: v for k, v in kwargs.items() if k in _KEYWORDS})
    return fields


def on_prerun(
    sender: Any = None, task_id: str | None = None, args: Any = None, kwargs: Any = None, **_: Any
) -> None:
    """A task starts in this process: count it, time it, and tag its log lines."""
    name = _name(sender)
    log_context_var.set(LogContext(task_fields(name, task_id, args, kwargs)))
    if _eager(sender):
        return
    if task_id is not None:
        _started[task_id] = time.monotonic()
    recorder.count(name, "run")


def on_postrun(
    sender: Any = None, task_id: str | None = None, state: str | None = None, **_: Any
) -> None:
    """A task ended here: its duration, and `succeeded` (failures count in on_failure)."""
    log_context_var.set(None)
    started = _started.pop(task_id, None) if task_id is not None else None
    if _eager(sender) or started is None:
        return
    outcome = "succeeded" if state == "SUCCESS" else None
    recorder.finished(_name(sender), time.monotonic() - started, outcome)


def on_failure(sender: Any = None, **_: Any) -> None:
    """A task failed: raised, or (sent by the main process) timed out or lost its worker."""
    if not _eager(sender):
        recorder.count(_name(sender), "failed")


def on_retry(sender: Any = None, **_: Any) -> None:
    """A task asked to be retried."""
    if not _eager(sender):
        recorder.count(_name(sender), "retried")


def on_setup_logging(loglevel: Any = None, **_: Any) -> None:
    """Celery's logging is ours: JSON lines on stderr (a receiver here stops Celery's own)."""
    configure_logging(loglevel if isinstance(loglevel, int | str) and loglevel else "info")


_tracing: list[Any] = []  # this pool process's tracer provider, when tracing is on


def on_process_init(**_: Any) -> None:
    """Each pool process traces on its own (a tracer's export thread does not survive fork)."""
    provider = telemetry.worker_tracing(Settings())
    if provider is not None:
        _tracing.append(provider)


def on_process_shutdown(**_: Any) -> None:
    """Send the spans still buffered before the pool process exits."""
    while _tracing:
        _tracing.pop().shutdown()


def connect_signals() -> None:
    """Receive Celery's task, logging and pool-process signals in this process."""
    # Without decorators (Celery's are untyped); dispatch_uid makes each idempotent.
    for signal, receiver in (
        (signals.task_prerun, on_prerun),
        (signals.task_postrun, on_postrun),
        (signals.task_failure, on_failure),
        (signals.task_retry, on_retry),
        (signals.setup_logging, on_setup_logging),
        (signals.worker_process_init, on_process_init),
        (signals.worker_process_shutdown, on_process_shutdown),
    ):
        signal.connect(receiver, weak=False, dispatch_uid=f"daedalus.{receiver.__name__}")
