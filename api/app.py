"""The Starlette application: health, metrics, REST under /v1, GraphQL at /graphql.

Middleware, outermost first: tracing (when on) → request id, access log and metrics →
CORS (browser origins; preflights answered here, before any key is asked for) → body
limit → API key (client app and tenant) → rate limit → routes.
"""

from __future__ import annotations

import logging

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.types import ExceptionHandler

from api import openapi, problems, rest, web
from api.clients import KeyRing, load_keyring
from api.graphql.schema import DaedalusGraphQL
from api.metrics import Metrics, metrics_endpoint, watch_workers
from api.middleware.access_log import AccessLog
from api.middleware.api_keys import ApiKeys
from api.middleware.body_limit import BodyLimit
from api.middleware.rate_limit import RateLimit
from api.ratelimit import TokenBuckets
from api.runtime import lifespan, runtime_of
from api.secret_key import with_ephemeral_key
from api.telemetry import Tracing, TracingMiddleware, api_tracing
from infra.settings import Settings
from infra.supervisor import Supervisor
from services.errors import DomainError

log = logging.getLogger(__name__)

# What a page on an allowed origin may send and read (the request id and the rate-limit
# headers, so a browser client can back off).
CORS_METHODS = ["GET", "POST", "PUT", "DELETE"]
CORS_HEADERS = ["authorization", "content-type", "x-api-key", "x-request-id"]
CORS_EXPOSED = [
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "Retry-After",
    "X-Request-Id",
]
CORS_MAX_AGE = 600


async def healthz(request: Request) -> JSONResponse:
    """GET /healthz: the process is up and serving."""
    return JSONResponse({"status": "ok"})


async def readyz(request: Request) -> JSONResponse:
    """GET /readyz: the event store's Redis answers, and (`make run`) its workers and beat run.

    Under `make run` the body lists each supervised process (`running`, or `restarting`
    after it died) and any that is not running makes the answer 503: the service it
    started is not whole until the supervisor has replaced it (infra/supervisor.py).
    """
    runtime = runtime_of(request)
    try:
        ok = runtime is not None and bool(await run_in_threadpool(runtime.connection.client.ping))
    except (OSError, RedisError):
        ok = False
    supervisor: Supervisor | None = getattr(request.app.state, "processes", None)
    processes = supervisor.status() if supervisor is not None else None
    if not ok:
        detail = "the event store is not reachable"
        return problems.problem(503, "not_ready", detail, processes=processes)
    down = sorted(name for name, state in (processes or {}).items() if state != "running")
    if down:
        detail = f"not running (being restarted): {', '.join(down)}"
        return problems.problem(503, "not_ready", detail, processes=processes)
    body: dict[str, object] = {"status": "ready"}
    if processes is not None:
        body["processes"] = processes
    return JSONResponse(body)


def create_app(settings: Settings | None = None) -> Starlette:
    """Build the app for `settings` (read from the environment when not given)."""
    settings = with_ephemeral_key(settings if settings is not None else Settings())
    metrics = Metrics()
    tracing = api_tracing(settings.otel, settings.otel_endpoint)  # None: tracing off
    keyring = load_keyring(settings)
    origins = browser_origins(settings, keyring)
    buckets = _buckets(settings, traced=tracing is not None)
    graphql = DaedalusGraphQL(settings, allowed_origins=origins)
    _check_table_key(settings, keyring)
    if keyring.required and not len(keyring):
        log.warning("production without DAEDALUS_API_KEYS: every API request will be refused")
    handlers: dict[type[Exception] | int, ExceptionHandler] = {
        DomainError: problems.handle_domain_error,
        problems.InvalidRequest: problems.handle_invalid_request,
        problems.PayloadTooLarge: problems.handle_payload_too_large,
        problems.UnsupportedMediaType: problems.handle_unsupported_media_type,
        HTTPException: problems.handle_http_exception,
        # Unreachable or stalled Redis (StoreUnavailable is a ConnectionError): 503.
        RedisConnectionError: problems.handle_store_unavailable,
        RedisTimeoutError: problems.handle_store_unavailable,
        Exception: problems.handle_internal_error,
    }
    app = Starlette(
        debug=False,
        # Routes are tried in order and no two share a path: the API's own first, so
        # a GraphQL or REST call is not matched against the probes' paths first.
        routes=[
            Route("/graphql", graphql, methods=["GET", "POST"]),
            Mount("/v1", app=rest.SegmentRouter(rest.routes)),
            WebSocketRoute("/graphql", graphql),
            Route("/healthz", healthz, methods=["GET"]),
            Route("/readyz", readyz, methods=["GET"]),
            Route("/metrics", metrics_endpoint, methods=["GET"]),
            *openapi.routes,  # GET /openapi.yaml and /openapi.json
            *web.routes(settings),  # the table pages at /table/
        ],
        middleware=_middleware(settings, metrics, keyring, tracing, origins, buckets),
        exception_handlers=handlers,
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.metrics = metrics
    app.state.keyring = keyring
    app.state.tracing = tracing
    app.state.rate_buckets = buckets  # WebSocket operations spend them too
    watch_workers(app, settings)  # task metrics and tick lag, read from Redis at scrape time
    return app


def _check_table_key(settings: Settings, keyring: KeyRing) -> None:
    """The table pages' key is handed to every visitor: it must be a publishable key."""
    if settings.table_key is None:
        return
    client = keyring.lookup(settings.table_key)
    if client is not None and not client.publishable:
        raise ValueError("DAEDALUS_TABLE_KEY is a secret key: give the pages a publishable one")
    if client is None and keyring.required:
        log.warning("DAEDALUS_TABLE_KEY is not a configured key: the table pages will be refused")


def browser_origins(settings: Settings, keyring: KeyRing) -> list[str]:
    """The origins whose pages may call: configured, and every publishable key's."""
    return list(dict.fromkeys([*settings.cors_origins, *keyring.origins]))


def _buckets(settings: Settings, traced: bool) -> TokenBuckets | None:
    if settings.rate_limit is None:
        return None
    rate, burst = settings.rate_limit
    # Traced, its Redis calls keep redis-py's client, whose spans OpenTelemetry records.
    return TokenBuckets(rate, burst, pipelined=not traced)


def _middleware(
    settings: Settings,
    metrics: Metrics,
    keyring: KeyRing,
    tracing: Tracing | None,
    origins: list[str],
    buckets: TokenBuckets | None,
) -> list[Middleware]:
    stack = [
        *([Middleware(TracingMiddleware, tracing=tracing)] if tracing is not None else []),
        # The request id, the access log and the request metrics: one layer.
        Middleware(AccessLog, metrics=metrics, traced=tracing is not None),
    ]
    if origins:
        stack.append(
            Middleware(
                CORSMiddleware,
                allow_origins=origins,
                allow_methods=CORS_METHODS,
                allow_headers=CORS_HEADERS,
                expose_headers=CORS_EXPOSED,
                max_age=CORS_MAX_AGE,
            )
        )
    stack += [
        Middleware(BodyLimit, limit=settings.max_body_bytes),
        Middleware(ApiKeys, keyring=keyring, origins=tuple(origins)),
    ]
    if buckets is not None:
        stack.append(Middleware(RateLimit, buckets=buckets, metrics=metrics))
    return stack
