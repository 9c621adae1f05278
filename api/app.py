"""The Starlette application: health, REST under /v1, GraphQL at /graphql."""

from __future__ import annotations

from redis.exceptions import RedisError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.types import ExceptionHandler

from api import problems, rest
from api.graphql import DaedalusGraphQL
from api.runtime import lifespan, runtime_of
from api.secret_key import with_ephemeral_key
from api.settings import Settings
from services.errors import DomainError


async def healthz(request: Request) -> JSONResponse:
    """GET /healthz: the process is up and serving."""
    return JSONResponse({"status": "ok"})


async def readyz(request: Request) -> JSONResponse:
    """GET /readyz: the event store's Redis answers."""
    runtime = runtime_of(request)
    try:
        ok = runtime is not None and bool(await run_in_threadpool(runtime.connection.client.ping))
    except (OSError, RedisError):
        ok = False
    if not ok:
        return problems.problem(503, "not_ready", "the event store is not reachable")
    return JSONResponse({"status": "ready"})


def create_app(settings: Settings | None = None) -> Starlette:
    """Build the app for `settings` (read from the environment when not given)."""
    settings = with_ephemeral_key(settings if settings is not None else Settings())
    graphql = DaedalusGraphQL(settings)
    handlers: dict[type[Exception] | int, ExceptionHandler] = {
        DomainError: problems.handle_domain_error,
        problems.InvalidRequest: problems.handle_invalid_request,
        problems.PayloadTooLarge: problems.handle_payload_too_large,
        HTTPException: problems.handle_http_exception,
        Exception: problems.handle_internal_error,
    }
    app = Starlette(
        debug=False,
        routes=[
            Route("/healthz", healthz, methods=["GET"]),
            Route("/readyz", readyz, methods=["GET"]),
            Mount("/v1", routes=rest.routes),
            Route("/graphql", graphql, methods=["GET", "POST"]),
            WebSocketRoute("/graphql", graphql),
        ],
        exception_handlers=handlers,
        lifespan=lifespan,
    )
    app.state.settings = settings
    return app
