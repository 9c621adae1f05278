"""Optional tracing: off by default; on, a request is a server span with Redis children."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from opentelemetry import trace
from opentelemetry.instrumentation.celery import CeleryInstrumentor
from opentelemetry.instrumentation.redis import RedisInstrumentor
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind
from pydantic import ValidationError
from starlette.testclient import TestClient

import api.app
from api import telemetry
from api.app import create_app
from api.telemetry import Tracing
from infra import telemetry as shared
from infra.settings import Settings
from infra.telemetry import wanted
from workers import metrics

PARTY = [{"id": "p1", "name": "Ash", "profile": {"system": "5e", "modifiers": {"STR": 4}}}]


@pytest.fixture(autouse=True)
def _no_tracing_config(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "DAEDALUS_OTEL",
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    ):
        monkeypatch.delenv(name, raising=False)


def settings(tmp_path: Path, **fields: object) -> Settings:
    return Settings.model_validate(
        {"environment": "test", "DAEDALUS_DATA_DIR": str(tmp_path), **fields}
    )


def instrumented() -> bool:
    celery: bool = CeleryInstrumentor().is_instrumented_by_opentelemetry  # type: ignore[no-untyped-call]
    return bool(RedisInstrumentor().is_instrumented_by_opentelemetry or celery)


def test_tracing_is_on_with_an_endpoint_or_the_switch_and_off_otherwise() -> None:
    assert not wanted(None, None) and not wanted(None, "")
    assert wanted(None, "http://collector:4318") and wanted(True, None)
    assert not wanted(False, "http://collector:4318")  # DAEDALUS_OTEL=0 wins


@pytest.mark.parametrize(
    ("env", "on"),
    [
        ({}, False),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, True),
        ({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c:4318/v1/traces"}, True),
        ({"DAEDALUS_OTEL": "1"}, True),
        ({"DAEDALUS_OTEL": "on"}, True),
        ({"DAEDALUS_OTEL": "false", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c"}, False),
    ],
)
def test_the_api_and_the_workers_read_the_tracing_switch_alike(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], on: bool
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    read = Settings()
    assert wanted(read.otel, read.otel_endpoint) is on
    made: list[str] = []
    monkeypatch.setattr(shared, "make_provider", lambda name, exporter=None: made.append(name))
    monkeypatch.setattr(shared, "instrument_libraries", lambda provider: None)
    monkeypatch.setattr(trace, "set_tracer_provider", lambda provider: None)
    shared.worker_tracing(read)
    assert made == (["daedalus-worker"] if on else [])


def test_a_switch_that_is_not_a_boolean_is_refused_not_read_as_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DAEDALUS_OTEL", "maybe")
    with pytest.raises(ValidationError, match="DAEDALUS_OTEL"):
        Settings()


def test_settings_read_the_switch_and_the_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DAEDALUS_OTEL", "1")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318")
    read = Settings()
    assert read.otel is True and read.otel_endpoint == "http://collector:4318"


def test_nothing_is_instrumented_when_tracing_is_off(tmp_path: Path) -> None:
    app = create_app(settings(tmp_path))
    assert app.state.tracing is None
    assert "TracingMiddleware" not in [getattr(m.cls, "__name__", "") for m in app.user_middleware]
    assert not instrumented()


@pytest.fixture
def exporter(monkeypatch: pytest.MonkeyPatch) -> Iterator[InMemorySpanExporter]:
    """Spans of apps built in the test, kept in memory; instrumentation undone after."""
    memory = InMemorySpanExporter()

    def in_memory(flag: bool | None, endpoint: str | None) -> Tracing | None:
        return telemetry.api_tracing(flag, endpoint, exporter=memory)

    monkeypatch.setattr(api.app, "api_tracing", in_memory)
    yield memory
    shared.uninstrument_libraries()


def children(spans: tuple[ReadableSpan, ...], parent: ReadableSpan) -> list[ReadableSpan]:
    assert parent.context is not None
    return [s for s in spans if s.parent is not None and s.parent.span_id == parent.context.span_id]


def test_a_request_is_a_server_span_named_by_route_with_redis_children(
    tmp_path: Path, exporter: InMemorySpanExporter
) -> None:
    app = create_app(settings(tmp_path, DAEDALUS_OTEL=True))
    assert app.state.tracing is not None and instrumented()
    with TestClient(app) as client:
        created = client.post("/v1/sessions", json={"preset": "standard_deck", "party": PARTY})
        sid, gm = created.json()["session_id"], created.json()["gm_token"]
        exporter.clear()
        assert client.get(
            f"/v1/sessions/{sid}", headers={"authorization": f"Bearer {gm}"}
        ).is_success
        query = "query($id: ID!, $t: String!) { session(id: $id, token: $t) { __typename } }"
        variables = json.dumps({"id": sid, "t": gm})
        assert client.get("/graphql", params={"query": query, "variables": variables}).is_success
    spans = exporter.get_finished_spans()
    servers = [s for s in spans if s.kind == SpanKind.SERVER]
    assert [s.name for s in servers] == ["GET /v1/sessions/{session_id}", "GET /graphql"]
    rest, graphql = servers
    assert (
        rest.attributes is not None and rest.attributes["http.route"] == "/v1/sessions/{session_id}"
    )
    redis_spans = [s for s in children(spans, rest) if s.kind == SpanKind.CLIENT]
    assert redis_spans, [s.name for s in spans]
    assert all(s.attributes and s.attributes.get("db.system") == "redis" for s in redis_spans)
    # Redis statements are sanitized, and no span carries the query string or the token.
    dump = repr([(s.name, dict(s.attributes or {})) for s in spans])
    assert gm not in dump and "variables" not in dump and "query=" not in dump
    assert all("?" in str((s.attributes or {}).get("db.statement", "?")) for s in redis_spans)
    assert graphql.resource.attributes["service.name"] == "daedalus-api"


def test_a_traced_rate_limit_take_is_a_redis_span_of_its_request(
    tmp_path: Path, exporter: InMemorySpanExporter
) -> None:
    # Traced, the limiter's Redis calls go through redis-py's client (the untraced API's
    # pipelined client makes no spans): a roll, which touches Redis only for its token,
    # has that call under its server span.
    app = create_app(settings(tmp_path, DAEDALUS_OTEL=True, DAEDALUS_RATE_LIMIT_RPS=1000))
    with TestClient(app) as client:
        client.post("/v1/dice/roll", json={"expression": "1d6"})  # the script is loaded
        exporter.clear()
        answer = client.post("/v1/dice/roll", json={"expression": "1d6"})
        assert answer.is_success and "RateLimit-Remaining" in answer.headers
    spans = exporter.get_finished_spans()
    (server,) = [s for s in spans if s.kind == SpanKind.SERVER]
    redis_spans = [s for s in children(spans, server) if s.kind == SpanKind.CLIENT]
    assert [s.name for s in redis_spans] == ["EVALSHA"], [s.name for s in spans]


def test_a_traces_only_endpoint_switches_the_api_on_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://c:4318/v1/traces")
    read = Settings()
    assert wanted(read.otel, read.otel_endpoint)


def test_a_worker_process_traces_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    made = shared.make_provider
    monkeypatch.setattr(trace, "set_tracer_provider", lambda provider: None)  # keep global
    monkeypatch.setattr(
        shared, "make_provider", lambda name, exporter=None: made(name, InMemorySpanExporter())
    )
    metrics.on_process_init()  # as Celery calls it in each pool process
    assert not instrumented() and not metrics._tracing
    monkeypatch.setenv("DAEDALUS_OTEL", "1")
    try:
        metrics.on_process_init()
        (provider,) = metrics._tracing
        assert instrumented()
        assert provider.resource.attributes["service.name"] == "daedalus-worker"
    finally:
        metrics.on_process_shutdown()
        shared.uninstrument_libraries()
    assert not metrics._tracing and not instrumented()
