"""The access log, the request metrics and the request id: one layer, outermost but tracing.

Each request gets its id first (api/middleware/request_id.py: echoed in `X-Request-ID`,
set for every log line of the request), then is timed; once answered (or failed) it is
logged as one JSON line and observed once. One layer rather than two: every layer costs
an await and a `send` wrapper on every request, and these two wrap the same messages.

Logged: method, route template, status, duration, tenant and client app, and what the
request concerns (`session_id`, `campaign_id`, `job_id`: from the route's path
parameters or `infra.logs.annotate`). Never the path's query string, headers (API keys,
role tokens), bodies or views. An unhandled error is logged here, once, with the same
fields (the server's own traceback line for it is dropped, see infra/logs.py).
"""

from __future__ import annotations

import logging
import time

from starlette.routing import Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api import telemetry
from api.clients import Client, client_state
from api.metrics import Metrics
from api.middleware.request_id import echo_request_id, request_id_from
from infra.logs import close_context, direct, mark_logged, open_context, request_id_var

log = logging.getLogger("daedalus.access")

UNMATCHED = "<unmatched>"
_INFO = logging.INFO
_MESSAGE = "%s %s %d"


def route_template(scope: Scope) -> str:
    """The matched route's template (`/v1/sessions/{session_id:str}`), not the raw path."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if route is None or path is None or isinstance(route, Mount):
        return UNMATCHED
    prefix = scope.get("root_path", "")[len(scope.get("app_root_path", "")) :]
    return f"{prefix}{path}"


class AccessLog:
    """Give each request its id and time it; log it and count it once it is answered.

    `traced`: whether server spans exist to be named by route (tracing on); without,
    naming them is skipped rather than looked up twice a request for nothing.
    """

    def __init__(self, app: ASGIApp, metrics: Metrics, traced: bool = True) -> None:
        self.app = app
        self.metrics = metrics
        self.traced = traced

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind != "http" and kind != "websocket":
            await self.app(scope, receive, send)
            return
        request_id = request_id_from(scope)
        scope.setdefault("state", {})["request_id"] = request_id
        id_token = request_id_var.set(request_id)
        started = time.perf_counter()
        status = 101 if kind == "websocket" else 500
        traced = self.traced

        async def observe(message: Message) -> None:
            nonlocal status
            event = message["type"]
            if event == "http.response.start":
                status = message["status"]
                echo_request_id(message, request_id)
                if traced:  # routed by now; the span ends with the body, before _record
                    telemetry.name_server_span(scope.get("method", ""), route_template(scope))
            elif event == "websocket.close" and status == 101:
                status = 403  # closed before it was accepted: refused
            await send(message)

        # Path parameters are read when a line is written: routing sets them further in.
        context = open_context(lambda: scope.get("path_params") or {})
        try:
            await self.app(scope, receive, observe)
        except Exception as exc:
            log.exception(
                "unhandled error in %s %s", scope.get("method", "WS"), route_template(scope)
            )
            mark_logged(exc)
            raise
        finally:
            try:
                self._record(scope, status, time.perf_counter() - started)
            finally:
                close_context(context)
                request_id_var.reset(id_token)

    def _record(self, scope: Scope, status: int, seconds: float) -> None:
        method = scope.get("method", "WS")
        route = route_template(scope)
        self.metrics.observe_request(method, route, status, seconds)
        if self.traced:
            telemetry.name_server_span(method, route)
        if not log.isEnabledFor(_INFO):
            return
        client: Client | None = client_state(scope)
        peer = scope.get("client")
        fields = {
            "method": method,
            "route": route,
            "status": status,
            "duration_ms": round(seconds * 1000, 3),
            "tenant": client.tenant if client else None,
            "app": client.app if client else None,
            "client_ip": peer[0] if peer else None,
        }
        lines = direct(log, _INFO)
        if lines is not None:  # the service's own handler: the line without a record
            lines.write(_INFO, log.name, f"{method} {route} {status}", fields)
            return
        # What `log.info(...)` builds, without its per-call caller lookup (a walk of the
        # stack) and `extra` checks: the names below are fixed and clash with nothing.
        record = log.makeRecord(
            log.name, _INFO, __file__, _LINE, _MESSAGE, (method, route, status), None, "_record"
        )
        record.__dict__.update(fields)
        log.handle(record)


_LINE = AccessLog._record.__code__.co_firstlineno
