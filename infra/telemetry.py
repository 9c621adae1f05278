"""Optional OpenTelemetry tracing: off unless `OTEL_EXPORTER_OTLP_ENDPOINT` or `DAEDALUS_OTEL=1`.

When on, the API traces each request (a server span per HTTP request or WebSocket, named
by route template: api/telemetry.py), every redis-py command (sanitized: `XADD ? ? ?`,
never the values) and Celery publishing; each worker process traces its tasks and their
Redis commands. Spans go over OTLP/HTTP to `OTEL_EXPORTER_OTLP_ENDPOINT` (the SDK's own
variables, `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_TRACES_SAMPLER`..., apply), under the
service name `OTEL_SERVICE_NAME` (default `daedalus-api` / `daedalus-worker`).

Whether to trace is decided from the one `Settings` object (`otel`, `otel_endpoint`), so
the API and the workers read `DAEDALUS_OTEL` the same way.
"""

from __future__ import annotations

import os
from typing import Any

from opentelemetry import trace
from opentelemetry.instrumentation.celery import CeleryInstrumentor
from opentelemetry.instrumentation.redis import RedisInstrumentor
from opentelemetry.sdk.resources import SERVICE_NAME, Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor, SpanExporter

from infra.settings import Settings

API_SERVICE = "daedalus-api"
WORKER_SERVICE = "daedalus-worker"


def wanted(flag: bool | None, endpoint: str | None) -> bool:
    """Trace or not: `DAEDALUS_OTEL` when set, else whether an OTLP endpoint is configured."""
    return flag if flag is not None else bool(endpoint)


def make_provider(default_service: str, exporter: SpanExporter | None = None) -> TracerProvider:
    """A tracer provider named by OTEL_SERVICE_NAME (else `default_service`).

    Spans are batched to the OTLP/HTTP exporter; a given `exporter` (tests) gets each
    span as it ends.
    """
    name = os.environ.get("OTEL_SERVICE_NAME") or default_service
    provider = TracerProvider(resource=Resource.create({SERVICE_NAME: name}))
    if exporter is None:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    else:
        provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider


def instrument_libraries(provider: TracerProvider) -> None:
    """Trace redis-py commands and Celery (publishing; running tasks in a worker)."""
    RedisInstrumentor().instrument(tracer_provider=provider)
    CeleryInstrumentor().instrument(tracer_provider=provider)  # type: ignore[no-untyped-call]


def uninstrument_libraries() -> None:
    """Undo `instrument_libraries` (tests; a process that stops tracing)."""
    celery: Any = CeleryInstrumentor()  # type: ignore[no-untyped-call]
    for instrumentor in (RedisInstrumentor(), celery):
        if instrumentor.is_instrumented_by_opentelemetry:
            instrumentor.uninstrument()


def worker_tracing(settings: Settings) -> TracerProvider | None:
    """Set up a worker process's tracing when wanted (call it in each pool process)."""
    if not wanted(settings.otel, settings.otel_endpoint):
        return None
    provider = make_provider(WORKER_SERVICE)
    trace.set_tracer_provider(provider)
    instrument_libraries(provider)
    return provider
