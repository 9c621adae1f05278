"""The generic REST adapter: one Starlette route per use-case row.

The body (POST, PUT), or the path parameters and query string (GET, DELETE) → the row's
request model → its service → its result model → JSON. A body that does not validate is
`invalid_request` problem+json whose `errors[].loc` are the request model's snake_case
field paths; domain errors reach the app's handlers (api/problems.py). Fields a result
left unset are left out.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import annotated_types
from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

from api import problems
from api.bodies import ensure_json, parse_model, read_body, validation_errors
from api.problems import InvalidRequest
from api.rest.params import int_param
from api.tables.access import bearer
from api.tables.tokens import InvalidToken, RoleToken
from api.usecases.run import execute
from api.usecases.table import Redacted, UseCase
from infra import jsonbytes

BEARER = "Authorization: Bearer <token>"


Bounds = dict[str, tuple[int, int]]


def _bounded(model: type[BaseModel] | None) -> Bounds:
    """The request model's integer fields with a `ge` and a `le`: name → [low, high]."""
    out: Bounds = {}
    for name, info in (model.model_fields if model is not None else {}).items():
        low = next((m.ge for m in info.metadata if isinstance(m, annotated_types.Ge)), None)
        high = next((m.le for m in info.metadata if isinstance(m, annotated_types.Le)), None)
        if info.annotation is int and isinstance(low, int) and isinstance(high, int):
            out[name] = (low, high)
    return out


def _validated(model: type[BaseModel], fields: dict[str, Any]) -> BaseModel:
    try:
        return model.model_validate(fields)
    except ValidationError as exc:
        detail = f"path or query parameters do not match {model.__name__}"
        raise InvalidRequest(detail, validation_errors(exc)) from None


def _query(
    request: Request, model: type[BaseModel], path: dict[str, Any], bounds: Bounds
) -> BaseModel:
    given: dict[str, Any] = {**request.query_params, **path}
    for name, (low, high) in bounds.items():
        if name in request.query_params:
            # One message per mistake, as every integer query parameter answers it.
            given[name] = int_param(request, name, 0, low, high)
    return _validated(model, given)


def render(
    result: BaseModel | Redacted, status: int = 200, headers: dict[str, str] | None = None
) -> Response:
    """A result model as JSON, leaving out what it did not set (a rendered result as is)."""
    if isinstance(result, Redacted):
        body = jsonbytes.dumps(result.data)
    else:
        body = result.model_dump_json(exclude_unset=True).encode()
    return Response(body, status_code=status, headers=headers, media_type="application/json")


async def _request(row: UseCase, request: Request, path: dict[str, Any], bounds: Bounds) -> Any:
    """The row's validated request: from the query and path, or the body (and path)."""
    if row.request is None:
        return None
    if row.method in ("GET", "DELETE"):
        return _query(request, row.request, path, bounds)
    raw = await read_body(request)
    ensure_json(request, raw)
    if row.body is None:
        return parse_model(raw, row.request)
    body = parse_model(raw, row.body)
    return _validated(row.request, {**body.model_dump(exclude_unset=True), **path})


def route(row: UseCase) -> Route:
    """The route serving `row` at its path under /v1."""

    if row.method in ("POST", "PUT") and row.path_params and row.body is None:
        # Its JSON body would also carry the path's fields (and so would its OpenAPI body).
        raise TypeError(f"{row.name}: a POST or PUT row with path parameters names its body")
    if row.method is None:
        raise TypeError(f"{row.name}: a GraphQL-only row has no route")
    table, params, bounds = row.table, row.path_params, _bounded(row.request)

    async def endpoint(request: Request) -> Response:
        path = {k: v for k, v in request.path_params.items() if k in params}
        grant: RoleToken | None = None
        try:
            if table is not None:
                found = request.path_params[table.param]
                grant = table.kind.grant(request, found, bearer(request), BEARER)
            args = await _request(row, request, path, bounds)
            result = await execute(row, args, request, "rest", grant)
        except InvalidToken as exc:
            return problems.problem(
                401,
                exc.code,
                exc.message,
                title=table.title if table is not None else "Token refused",
                headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
            )
        return render(result, row.status, row.headers(result) if row.headers else None)

    return Route(row.path, _Asgi(endpoint), methods=[row.method], name=row.name)


class _Asgi:
    """A `request -> response` endpoint as the ASGI app its route calls directly.

    Starlette wraps a function endpoint (`request_response`) in a second layer of its
    exception handlers, with a closure and a forwarding `send` per request; what the
    endpoint raises reaches the same handlers one layer up (the app's
    ExceptionMiddleware), before anything was sent.
    """

    __slots__ = ("endpoint",)

    def __init__(self, endpoint: Callable[[Request], Awaitable[Response]]) -> None:
        self.endpoint = endpoint

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = await self.endpoint(Request(scope, receive, send))
        await response(scope, receive, send)


def routes(rows: Iterable[UseCase]) -> list[BaseRoute]:
    """One route per row served over REST."""
    return [route(row) for row in rows if row.method is not None]
