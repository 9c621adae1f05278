"""Where the workers' task metrics live in Redis, and reading them back (for the API).

Written by every Celery process (workers/metrics.py), read by the API at scrape time
(api/metrics.py). Three hashes on the workers' Redis; in field names `/` below stands
for the separator \\x1f, bucket counts are per bucket (not cumulative), and `<bound>`
is spelled as Prometheus spells `le` ("0.5", "+Inf"):

- `daedalus:metrics:tasks`: `<task>/<outcome>` → count; outcome is `run` (started),
  `succeeded`, `failed` or `retried`.
- `daedalus:metrics:task_seconds`: `<task>/sum`, `<task>/count`, `<task>/le/<bound>`.
- `daedalus:metrics:tick_lag`: `sum`, `count`, `le/<bound>` (seconds a campaign's
  downtime was applied after it fell due).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import redis

SEP = "\x1f"
TASKS_KEY = "daedalus:metrics:tasks"
DURATIONS_KEY = "daedalus:metrics:task_seconds"
TICK_LAG_KEY = "daedalus:metrics:tick_lag"
# Shards run up to the hard limit (960 s); campaign ticks take milliseconds.
DURATION_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0)
# Beat scans every 5 s by default; a lease (60 s) passes before a lost tick is retried.
TICK_LAG_BUCKETS = (1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 900.0, 3600.0)


def le_text(bound: float) -> str:
    """A bucket bound as Prometheus spells `le` ("0.5", "10.0", "+Inf")."""
    return "+Inf" if bound == math.inf else repr(float(bound))


def bucket_field(value: float, bounds: tuple[float, ...]) -> str:
    """The `le` of the bucket `value` falls in."""
    return le_text(next((bound for bound in bounds if value <= bound), math.inf))


@dataclass(frozen=True)
class HistogramData:
    """A histogram read back: cumulative (le, count) buckets ending with +Inf, and the sum."""

    buckets: list[tuple[str, float]]
    sum: float


@dataclass(frozen=True)
class TaskMetrics:
    """Everything the workers recorded."""

    outcomes: dict[tuple[str, str], float]
    durations: dict[str, HistogramData]
    tick_lag: HistogramData


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw


def histogram(fields: Mapping[str, float], bounds: tuple[float, ...]) -> HistogramData:
    """Per-bucket counts (`le<SEP><bound>`) and `sum` as a cumulative histogram over `bounds`.

    A count stored under a bound no longer in `bounds` goes to the next bound up, so the
    buckets stay the same whatever an older worker wrote.
    """
    per = [0.0] * (len(bounds) + 1)
    for name, value in fields.items():
        if not name.startswith(f"le{SEP}"):
            continue
        try:
            bound = float(name.removeprefix(f"le{SEP}"))
        except ValueError:
            continue
        per[next((i for i, b in enumerate(bounds) if bound <= b), len(bounds))] += value
    labels = [*(le_text(b) for b in bounds), "+Inf"]
    running, buckets = 0.0, []
    for le, count in zip(labels, per, strict=True):
        running += count
        buckets.append((le, running))
    return HistogramData(buckets, fields.get("sum", 0.0))


def read(client: redis.Redis) -> TaskMetrics:
    """The workers' metrics as stored on `client` (one round trip)."""
    pipe = client.pipeline(transaction=False)
    for key in (TASKS_KEY, DURATIONS_KEY, TICK_LAG_KEY):
        pipe.hgetall(key)
    raw_tasks, raw_durations, raw_lag = pipe.execute()
    outcomes: dict[tuple[str, str], float] = {}
    for field, value in raw_tasks.items():
        task, _, outcome = _text(field).rpartition(SEP)
        outcomes[task, outcome] = float(value)
    per_task: dict[str, dict[str, float]] = {}
    for field, value in raw_durations.items():
        task, _, rest = _text(field).partition(SEP)
        per_task.setdefault(task, {})[rest] = float(value)
    lag = {_text(field): float(value) for field, value in raw_lag.items()}
    return TaskMetrics(
        outcomes,
        {task: histogram(fields, DURATION_BUCKETS) for task, fields in per_task.items()},
        histogram(lag, TICK_LAG_BUCKETS),
    )
