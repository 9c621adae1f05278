"""The access log and the request metrics: one JSON line and one observation per request.

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
from infra.logs import close_context, mark_logged, open_context

log = logging.getLogger("daedalus.access")

UNMATCHED = "<unmatched>"


def route_template(scope: Scope) -> str:
    """The matched route's template (`/v1/sessions/{session_id:str}`), not the raw path."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if route is None or path is None or isinstance(route, Mount):
        return UNMATCHED
    prefix = scope.get("root_path", "")[len(scope.get("app_root_path", "")) :]
    return f"{prefix}{path}"


class AccessLog:
    """Time each request; log it and count it once it is answered (or has failed)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 101 if scope["type"] == "websocket" else 500

        async def observe(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                # Routed by now; the span ends with the body, before _record runs.
                telemetry.name_server_span(scope.get("method", ""), route_template(scope))
            elif message["type"] == "websocket.close" and status == 101:
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
            self._record(scope, status, time.perf_counter() - started)
            close_context(context)

    def _record(self, scope: Scope, status: int, seconds: float) -> None:
        method = scope.get("method", "WS")
        route = route_template(scope)
        self.metrics.observe_request(method, route, status, seconds)
        telemetry.name_server_span(method, route)
        client: Client | None = client_state(scope)
        peer = scope.get("client")
        log.info(
            "%s %s %d",
            method,
            route,
            status,
            extra={
                "method": method,
                "route": route,
                "status": status,
                "duration_ms": round(seconds * 1000, 3),
                "tenant": client.tenant if client else None,
                "app": client.app if client else None,
                "client_ip": peer[0] if peer else None,
            },
        )
