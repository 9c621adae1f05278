"""Optional OpenTelemetry tracing: off unless `OTEL_EXPORTER_OTLP_ENDPOINT` or `DAEDALUS_OTEL=1`.

When on, the API traces each request (a server span per HTTP request or WebSocket, named
by route template), every redis-py command (sanitized: `XADD ? ? ?`, never the values)
and Celery publishing; each worker process traces its tasks and their Redis commands.
Spans go over OTLP/HTTP to `OTEL_EXPORTER_OTLP_ENDPOINT` (the SDK's own variables,
`OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_TRACES_SAMPLER`..., apply), under the service name
`OTEL_SERVICE_NAME` (default `daedalus-api` / `daedalus-worker`).

Query strings never reach a span (a GraphQL GET carries its variables, tokens included,
there); request headers are not recorded unless the operator asks for some with
`OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_SERVER_REQUEST` (never list `authorization`
or `x-api-key`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from opentelemetry import trace
from opentelemetry.instrumentation.asgi import OpenTelemetryMiddleware
from opentelemetry.instrumentation.celery import CeleryInstrumentor
from opentelemetry.instrumentation.redis import RedisInstrumentor
from opentelemetry.sdk.resources import SERVICE_NAME, Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor, SpanExporter
from pydantic import TypeAdapter, ValidationError
from starlette.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger(__name__)

API_SERVICE = "daedalus-api"
WORKER_SERVICE = "daedalus-worker"
ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
_QUERY = "daedalus.query_string"  # where the query string waits while OTel reads the scope


def wanted(flag: bool | None, endpoint: str | None) -> bool:
    """Trace or not: `DAEDALUS_OTEL` when set, else whether an OTLP endpoint is configured."""
    return flag if flag is not None else bool(endpoint)


def wanted_in(environ: Mapping[str, str] | None = None) -> bool:
    """`wanted` for a process that reads the environment itself (workers)."""
    env = os.environ if environ is None else environ
    raw = env.get("DAEDALUS_OTEL", "").strip()
    try:
        flag = TypeAdapter(bool).validate_python(raw) if raw else None
    except ValidationError:
        log.warning("DAEDALUS_OTEL=%r is not a boolean: tracing stays off", raw)
        return False
    return wanted(flag, next((env[name] for name in ENDPOINT_VARIABLES if env.get(name)), None))


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


@dataclass
class Tracing:
    """The API's tracing: a provider, and redis-py and Celery instrumented for it."""

    provider: TracerProvider

    def shutdown(self) -> None:
        """Stop instrumenting and flush the spans still buffered."""
        uninstrument_libraries()
        self.provider.shutdown()


def api_tracing(
    flag: bool | None, endpoint: str | None, exporter: SpanExporter | None = None
) -> Tracing | None:
    """Set up the API's tracing when wanted (None when off: nothing is instrumented)."""
    if not wanted(flag, endpoint):
        return None
    provider = make_provider(API_SERVICE, exporter)
    if exporter is None:  # the process's provider, for any code asking trace.get_tracer()
        trace.set_tracer_provider(provider)
    instrument_libraries(provider)
    return Tracing(provider)


def worker_tracing(environ: Mapping[str, str] | None = None) -> TracerProvider | None:
    """Set up a worker process's tracing when wanted (call it in each pool process)."""
    if not wanted_in(environ):
        return None
    provider = make_provider(WORKER_SERVICE)
    trace.set_tracer_provider(provider)
    instrument_libraries(provider)
    return provider


def _span_details(scope: Scope) -> tuple[str, dict[str, Any]]:
    # The route is not known yet: the method alone; the access log renames the span to
    # "GET /v1/sessions/{session_id:str}" once routing is done (never the raw path's ids).
    return str(scope.get("method") or scope["type"].upper()), {}


class TracingMiddleware:
    """OpenTelemetry's ASGI middleware, shown each request without its query string."""

    def __init__(self, app: ASGIApp, tracing: Tracing) -> None:
        self.app = app
        self.otel = OpenTelemetryMiddleware(
            self._restore,
            tracer_provider=tracing.provider,
            default_span_details=_span_details,
            exclude_spans=["receive", "send"],  # one span per request, not per message
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        hidden = {**scope, "query_string": b"", _QUERY: scope.get("query_string", b"")}
        await self.otel(hidden, receive, send)

    async def _restore(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope["query_string"] = scope.pop(_QUERY, b"")
        try:
            await self.app(scope, receive, send)
        finally:
            scope["query_string"] = b""  # OTel reads the scope again when the request ends


def name_server_span(method: str, route: str) -> None:
    """Name the current server span by route template (a no-op when tracing is off)."""
    span = trace.get_current_span()
    if span.is_recording():
        span.update_name(f"{method} {route}" if method != "WS" else route)
        span.set_attribute("http.route", route)
