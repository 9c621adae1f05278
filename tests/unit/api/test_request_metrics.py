"""The request metrics expose what prometheus_client's Counter and Histogram would."""

from __future__ import annotations

import random
import re

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from api.metrics import _BUCKETS, Metrics, RequestMetrics

LABELS = ["method", "route", "status"]
KEYS = [("GET", "/healthz", 200), ("POST", "/v1/sessions", 201), ("POST", "/v1/sessions", 422)]
# Every bound itself (a request of exactly `le` counts in that bucket), either side of it,
# zero and past the last bound (+Inf only).
DURATIONS = [0.0, *_BUCKETS, *(b * 0.999 for b in _BUCKETS), *(b * 1.001 for b in _BUCKETS), 60.0]


def _lines(registry: CollectorRegistry) -> list[str]:
    """The exposition's lines, sorted (the library writes label sets in the order first
    seen, the collector in label order), creation times (when each label set was first
    counted: not the same clock reading twice) left out."""
    text = generate_latest(registry).decode()
    return sorted(re.sub(r"(_created\{.*\}) \S+$", r"\1 T", line) for line in text.splitlines())


def test_the_exposition_is_the_librarys_for_the_same_requests() -> None:
    library = CollectorRegistry(auto_describe=True)
    counter = Counter(
        "daedalus_http_requests",
        "HTTP requests (and WebSocket sessions) by route template and status.",
        LABELS,
        registry=library,
    )
    histogram = Histogram(
        "daedalus_http_request_duration_seconds",
        "Time to answer an HTTP request, by route template and status.",
        LABELS,
        buckets=_BUCKETS,
        registry=library,
    )
    ours = CollectorRegistry(auto_describe=True)
    requests = RequestMetrics()
    ours.register(requests)
    rng = random.Random(7)
    for seconds in DURATIONS * 3 + [rng.uniform(0, 6) for _ in range(300)]:
        method, route, status = key = rng.choice(KEYS)
        counter.labels(method, route, str(status)).inc()
        histogram.labels(method, route, str(status)).observe(seconds)
        requests.observe(*key, seconds)
    assert _lines(ours) == _lines(library)
    assert 'daedalus_http_request_duration_seconds_bucket{le="0.001",' in "\n".join(_lines(ours))


def test_the_apps_metrics_count_each_request_once() -> None:
    metrics = Metrics()
    metrics.observe_request("POST", "/v1/dice/roll", 200, 0.002)
    metrics.observe_request("POST", "/v1/dice/roll", 200, 0.2)
    text = generate_latest(metrics.registry).decode()
    assert (
        'daedalus_http_requests_total{method="POST",route="/v1/dice/roll",status="200"} 2.0' in text
    )
    bucket = 'daedalus_http_request_duration_seconds_bucket{le="0.0025",method="POST",'
    assert f'{bucket}route="/v1/dice/roll",status="200"}} 1.0' in text
    total = 'daedalus_http_request_duration_seconds_sum{method="POST",route="/v1/dice/roll",'
    assert f'{total}status="200"}} 0.202' in text
