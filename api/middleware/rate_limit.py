"""Per-caller rate limits: a token bucket per API key (per client IP without a key).

The buckets live in the service's Redis (api/ratelimit.py), so every API process on it
shares one limit per caller. Every answer carries the IETF draft `RateLimit-Limit`,
`RateLimit-Remaining` and `RateLimit-Reset` headers; past the limit the answer is 429
`rate_limited` with `Retry-After`. A GraphQL request counts once, whatever it asks; a
WebSocket counts once, at its handshake. When Redis cannot be reached the request is
served without the headers (the limiter fails open and logs a warning).
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api import problems
from api.clients import client_state
from api.metrics import Metrics
from api.middleware.api_keys import is_open
from api.ratelimit import TokenBuckets


def redis_url_of(scope: Scope) -> str | None:
    """The URL of the running service's Redis (None before the app has started)."""
    app = scope.get("app")
    runtime = getattr(getattr(app, "state", None), "runtime", None)
    connection = getattr(runtime, "connection", None)
    url = getattr(connection, "url", None)
    return url if isinstance(url, str) else None


class RateLimit:
    """Take a token for the caller; refuse with 429 when its bucket is empty."""

    def __init__(self, app: ASGIApp, buckets: TokenBuckets, metrics: Metrics) -> None:
        self.app = app
        self.buckets = buckets
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, self._closing_on_shutdown(send))
            return
        if scope["type"] not in ("http", "websocket") or is_open(scope["path"]):
            await self.app(scope, receive, send)
            return
        client = client_state(scope)
        if client is not None:
            identity = client.identity
        else:
            peer = scope.get("client")
            identity = "ip:" + (peer[0] if peer else "unknown")
        decision = await self.buckets.take(identity, redis_url_of(scope))
        if decision is None:  # not checked (Redis unreachable): fail open
            await self.app(scope, receive, send)
            return
        headers = decision.headers()
        if not decision.allowed:
            self.metrics.rate_limited.inc()
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1013, "reason": "rate_limited"})
                return
            response = problems.problem(
                429,
                "rate_limited",
                f"too many requests: retry in {decision.retry_after} s",
                title="Rate limit exceeded",
                headers=headers,
            )
            await response(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).update(headers)
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _closing_on_shutdown(self, send: Send) -> Send:
        """`send` that closes the buckets' Redis client once the app has shut down."""

        async def closing(message: Message) -> None:
            if message["type"] in ("lifespan.shutdown.complete", "lifespan.shutdown.failed"):
                await self.buckets.aclose()
            await send(message)

        return closing
