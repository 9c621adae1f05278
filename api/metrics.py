"""Prometheus metrics: one registry per app, served at `GET /metrics`.

Observed at the api layer only (services/ knows nothing of Prometheus): HTTP requests by
route template, the event store's appends through ObservedEventStore, and dice rolls.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import redis
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram
from prometheus_client.exposition import generate_latest
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from services.store import RedisEventStore
from services.store.errors import WrongExpectedVersion
from services.store.model import ANY, AppendResult, NewEvent

_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


@dataclass
class Metrics:
    """The service's metrics, registered in their own registry."""

    registry: CollectorRegistry = field(
        default_factory=lambda: CollectorRegistry(auto_describe=True)
    )

    def __post_init__(self) -> None:
        r = self.registry
        self.requests = Counter(
            "daedalus_http_requests",
            "HTTP requests (and WebSocket sessions) by route template and status.",
            ["method", "route", "status"],
            registry=r,
        )
        self.latency = Histogram(
            "daedalus_http_request_duration_seconds",
            "Time to answer an HTTP request, by route template and status.",
            ["method", "route", "status"],
            buckets=_BUCKETS,
            registry=r,
        )
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

    def observe_request(self, method: str, route: str, status: int, seconds: float) -> None:
        """Count one answered request."""
        labels = (method, route, str(status))
        self.requests.labels(*labels).inc()
        self.latency.labels(*labels).observe(seconds)


def metrics_of(conn: HTTPConnection) -> Metrics | None:
    """The app's metrics (None for an app built without them)."""
    found: Metrics | None = getattr(conn.app.state, "metrics", None)
    return found


def count_roll(conn: HTTPConnection, api: str) -> None:
    """Count one dice roll made through `api` ("rest" or "graphql")."""
    metrics = metrics_of(conn)
    if metrics is not None:
        metrics.dice_rolls.labels(api).inc()


async def metrics_endpoint(request: Request) -> Response:
    """GET /metrics: every metric in the Prometheus text format."""
    metrics = metrics_of(request)
    body = generate_latest(metrics.registry) if metrics is not None else b""
    return Response(body, media_type=CONTENT_TYPE_LATEST)


class ObservedEventStore(RedisEventStore):
    """The event store, counting appended events and version conflicts."""

    def __init__(self, client: redis.Redis, tenant: str, metrics: Metrics) -> None:
        super().__init__(client, tenant)
        self.metrics = metrics

    def append(
        self, stream: str, events: Sequence[NewEvent], expected_version: int = ANY
    ) -> AppendResult:
        """RedisEventStore.append, observed."""
        try:
            result = super().append(stream, events, expected_version)
        except WrongExpectedVersion:
            self.metrics.append_conflicts.inc()
            raise
        if not result.duplicate:
            self.metrics.events_appended.inc(len(result.versions))
        return result
