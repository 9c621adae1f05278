"""The API's tracing: a server span per HTTP request or WebSocket, named by route template.

Built on the shared setup in infra/telemetry.py (the provider, redis-py and Celery
instrumented). Query strings never reach a span (a GraphQL GET carries its variables,
tokens included, there); request headers are not recorded unless the operator asks for
some with `OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_SERVER_REQUEST` (never list
`authorization` or `x-api-key`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from opentelemetry import trace
from opentelemetry.instrumentation.asgi import OpenTelemetryMiddleware
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SpanExporter
from starlette.types import ASGIApp, Receive, Scope, Send

from infra import telemetry

_QUERY = "daedalus.query_string"  # where the query string waits while OTel reads the scope


@dataclass
class Tracing:
    """The API's tracing: a provider, and redis-py and Celery instrumented for it."""

    provider: TracerProvider

    def shutdown(self) -> None:
        """Stop instrumenting and flush the spans still buffered."""
        telemetry.uninstrument_libraries()
        self.provider.shutdown()


def api_tracing(
    flag: bool | None, endpoint: str | None, exporter: SpanExporter | None = None
) -> Tracing | None:
    """Set up the API's tracing when wanted (None when off: nothing is instrumented)."""
    if not telemetry.wanted(flag, endpoint):
        return None
    provider = telemetry.make_provider(telemetry.API_SERVICE, exporter)
    if exporter is None:  # the process's provider, for any code asking trace.get_tracer()
        trace.set_tracer_provider(provider)
    telemetry.instrument_libraries(provider)
    return Tracing(provider)


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
