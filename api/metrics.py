"""Prometheus metrics: one registry per app, served at `GET /metrics`.

Observed at the api layer only (services/ knows nothing of Prometheus): HTTP requests by
route template, the event store's appends through ObservedEventStore, and dice rolls.
The workers' metrics (tasks, tick lag) are recorded in Redis by every worker process
(workers/metrics.py; layout in workers/task_metrics.py) and read from there at scrape
time by `WorkerCollector`, with how overdue the campaign clock is: the same fleet-wide
values on every API pod.
"""

from __future__ import annotations

import itertools
import logging
import time
from bisect import bisect_left
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import redis
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter
from prometheus_client.exposition import generate_latest
from prometheus_client.metrics_core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector
from prometheus_client.samples import Sample
from prometheus_client.utils import floatToGoString
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from infra.settings import Settings
from services.store import RedisEventStore
from services.store.client import AnyRedis
from services.store.errors import WrongExpectedVersion
from services.store.model import AppendResult
from services.store.revocations import Guard
from workers.client import quick_client, read_task_metrics

log = logging.getLogger(__name__)

_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


@dataclass
class Metrics:
    """The service's metrics, registered in their own registry."""

    registry: CollectorRegistry = field(
        default_factory=lambda: CollectorRegistry(auto_describe=True)
    )

    def __post_init__(self) -> None:
        r = self.registry
        # Requests and their latency: counted in plain lists, rendered when scraped.
        self.requests = RequestMetrics()
        r.register(self.requests)
        self.events_appended = Counter(
            "daedalus_events_appended", "Events appended to the event store.", registry=r
        )
        self.append_conflicts = Counter(
            "daedalus_append_conflicts",
            "Appends refused because the stream had moved on (optimistic concurrency).",
            registry=r,
        )
        self.dice_rolls = Counter(
            "daedalus_dice_rolls", "Dice expressions rolled, by API.", ["api"], registry=r
        )
        self.rate_limited = Counter(
            "daedalus_rate_limited", "Requests refused by the rate limit.", registry=r
        )

        # Each label set's child, found once: `labels()` costs more than the count.
        self._by_api: dict[str, Any] = {}

    def observe_request(self, method: str, route: str, status: int, seconds: float) -> None:
        """Count one answered request."""
        self.requests.observe(method, route, status, seconds)

    def count_roll(self, api: str) -> None:
        """Count one dice roll made through `api`."""
        child = self._by_api.get(api)
        if child is None:
            child = self._by_api[api] = self.dice_rolls.labels(api)
        child.inc()


class RequestMetrics(Collector):
    """`daedalus_http_requests` (a counter) and `daedalus_http_request_duration_seconds` (a
    histogram), by method, route template and status: what prometheus_client's Counter
    and Histogram children would expose, counted in one plain list per label set.

    Every request is counted, so the count is on the request path: the library's two
    children take a lock for each of the three values a request moves, 0.9 µs a request
    against 0.26 µs here (about 1% of a session command's instructions). The counts are
    moved by the event loop's thread only (the access log, api/middleware/access_log.py);
    a scrape reads a copy of each list, from a worker thread.
    """

    def __init__(self) -> None:
        # (method, route, status) -> [count, sum of seconds, one count per bucket (+Inf
        # last), not cumulative], and when the label set was first seen.
        self._rows: dict[tuple[str, str, int], list[float]] = {}
        self._created: dict[tuple[str, str, int], float] = {}

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        """Count one answered request that took `seconds`."""
        key = (method, route, status)
        row = self._rows.get(key)
        if row is None:
            row = [0.0] * (3 + len(_BUCKETS))
            self._created[key] = time.time()
            self._rows[key] = row
        row[0] += 1
        row[1] += seconds
        row[2 + bisect_left(_BUCKETS, seconds)] += 1  # the first bound >= seconds (le)

    def describe(self) -> list[Metric]:
        """The two families, with no samples (for the registry's name check)."""
        return list(self._families({}))

    def collect(self) -> Iterator[Metric]:
        """The counts so far, in label order."""
        return self._families({key: list(row) for key, row in list(self._rows.items())})

    def _families(self, rows: dict[tuple[str, str, int], list[float]]) -> Iterator[Metric]:
        labels = ["method", "route", "status"]
        requests = CounterMetricFamily(
            "daedalus_http_requests",
            "HTTP requests (and WebSocket sessions) by route template and status.",
            labels=labels,
        )
        latency = HistogramMetricFamily(
            "daedalus_http_request_duration_seconds",
            "Time to answer an HTTP request, by route template and status.",
            labels=labels,
        )
        for key in sorted(rows):
            row, created = rows[key], self._created[key]
            values = [key[0], key[1], str(key[2])]
            requests.add_metric(values, row[0], created=created)
            cumulative = list(itertools.accumulate(row[2:]))
            buckets = list(zip(_LE, cumulative, strict=True))
            latency.add_metric(values, buckets, row[1])
            # The creation time a Histogram child exposes (add_metric takes none).
            named = dict(zip(labels, values, strict=True))
            latency.samples.append(Sample(f"{latency.name}_created", named, created))
        yield requests
        yield latency


# The buckets' `le` labels as prometheus_client writes them ("0.001", ..., "+Inf").
_LE = tuple(floatToGoString(b) for b in (*_BUCKETS, float("inf")))  # type: ignore[no-untyped-call]


def metrics_of(conn: HTTPConnection) -> Metrics | None:
    """The app's metrics (None for an app built without them)."""
    found: Metrics | None = getattr(conn.app.state, "metrics", None)
    return found


def count_roll(conn: HTTPConnection, api: str) -> None:
    """Count one dice roll made through `api` ("rest" or "graphql")."""
    metrics = metrics_of(conn)
    if metrics is not None:
        metrics.count_roll(api)


async def metrics_endpoint(request: Request) -> Response:
    """GET /metrics: every metric in the Prometheus text format."""
    metrics = metrics_of(request)
    if metrics is None:
        return Response(b"", media_type=CONTENT_TYPE_LATEST)
    # In a thread: the workers' metrics are read from Redis.
    body = await run_in_threadpool(generate_latest, metrics.registry)
    return Response(body, media_type=CONTENT_TYPE_LATEST)


class DueTimes(Protocol):
    """What the collector needs of the campaign schedule (services/store/schedule.py)."""

    def oldest_due(self, now: float) -> float | None:
        """The earliest due time not yet claimed at `now`."""


class WorkerCollector(Collector):
    """The workers' task metrics and tick lag from Redis, and how overdue the clock is."""

    def __init__(
        self,
        workers: Callable[[], redis.Redis | None],
        schedule: Callable[[], DueTimes | None] = lambda: None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.workers = workers  # the workers' Redis (None: not reachable yet)
        self.schedule = schedule
        self.clock = clock

    def describe(self) -> list[Metric]:
        """Nothing up front: the families are only known once read (no Redis at import)."""
        return []

    def collect(self) -> Iterator[Metric]:
        """Read the workers' hashes and the schedule; skip what cannot be read."""
        yield from self._tasks()
        overdue = self._overdue()
        if overdue is not None:
            gauge = GaugeMetricFamily(
                "daedalus_ticks_overdue_seconds",
                "How long the oldest due campaign downtime has waited (0: none waits).",
            )
            gauge.add_metric([], overdue)
            yield gauge

    def _tasks(self) -> Iterator[Metric]:
        client = self.workers()
        if client is None:
            return
        try:
            read = read_task_metrics(client)
        except (redis.RedisError, OSError, ValueError) as exc:
            log.warning("worker metrics not readable: %r", exc)
            return
        tasks = CounterMetricFamily(
            "daedalus_tasks",
            "Celery task runs by task and outcome (run: started; succeeded, failed, retried).",
            labels=["task", "outcome"],
        )
        for (task, outcome), count in sorted(read.outcomes.items()):
            tasks.add_metric([task, outcome], count)
        durations = HistogramMetricFamily(
            "daedalus_task_duration_seconds",
            "How long Celery task runs took (any outcome), by task.",
            labels=["task"],
        )
        for task, data in sorted(read.durations.items()):
            durations.add_metric([task], data.buckets, data.sum)
        lag = HistogramMetricFamily(
            "daedalus_tick_lag_seconds",
            "How late campaign downtimes were applied, after they fell due.",
            buckets=read.tick_lag.buckets,
            sum_value=read.tick_lag.sum,
        )
        yield from (tasks, durations, lag)

    def _overdue(self) -> float | None:
        try:
            schedule = self.schedule()
            if schedule is None:
                return None
            now = self.clock()
            oldest = schedule.oldest_due(now)
        except (redis.RedisError, OSError) as exc:
            log.warning("campaign schedule not readable: %r", exc)
            return None
        return 0.0 if oldest is None else max(0.0, now - oldest)


def watch_workers(app: Starlette, settings: Settings) -> None:
    """Expose the workers' metrics and the clock's lag on the app's registry.

    The workers' Redis is `DAEDALUS_REDIS_URL`, else the event store's (`REDIS_URL` or
    the embedded one), as for the workers themselves; the campaign schedule is the
    runtime's, on the event store.
    """
    metrics: Metrics = app.state.metrics
    clients: dict[str, Any] = {}

    def store() -> redis.Redis | None:
        runtime = getattr(app.state, "runtime", None)
        return None if runtime is None else runtime.connection.client

    def workers() -> redis.Redis | None:
        if not settings.broker_url:
            return store()
        if "broker" not in clients:
            clients["broker"] = quick_client(settings.broker_url)
        found: redis.Redis = clients["broker"]
        return found

    def schedule() -> DueTimes | None:
        # The runtime's TickSchedule (api/runtime.py), on the event store; None before start.
        found: DueTimes | None = getattr(getattr(app.state, "runtime", None), "schedule", None)
        return found

    metrics.registry.register(WorkerCollector(workers, schedule))


class ObservedEventStore(RedisEventStore):
    """The event store, counting appended events and version conflicts."""

    def __init__(self, client: AnyRedis, tenant: str, metrics: Metrics) -> None:
        super().__init__(client, tenant)
        self.metrics = metrics

    def appended(
        self, stream: str, expected_version: int, guard: Guard | None, reply: Any
    ) -> AppendResult:
        """RedisEventStore.appended, observed (on the threads' client and the asyncio one)."""
        try:
            result = super().appended(stream, expected_version, guard, reply)
        except WrongExpectedVersion:
            self.metrics.append_conflicts.inc()
            raise
        if not result.duplicate:
            self.metrics.events_appended.inc(len(result.versions))
        return result
