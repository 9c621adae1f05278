"""The generic REST adapter: one Starlette route per use-case row.

The body (POST, PUT), or the path parameters and query string (GET, DELETE) → the row's
request model → its service → its result model → JSON. A body that does not validate is
`invalid_request` problem+json whose `errors[].loc` are the request model's snake_case
field paths; domain errors reach the app's handlers (api/problems.py). Fields a result
left unset are left out.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import annotated_types
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from api import problems
from api.bodies import parse_model, read_body, validation_errors
from api.problems import InvalidRequest
from api.rest.params import int_param
from api.tables.access import bearer
from api.tables.tokens import InvalidToken, RoleToken
from api.usecases.run import execute
from api.usecases.table import Rendered, UseCase

BEARER = "Authorization: Bearer <token>"


def _bounds(info: FieldInfo) -> tuple[int, int] | None:
    """An integer field's [low, high], as its `ge` and `le` say (None: not a bounded int)."""
    if info.annotation is not int:
        return None
    low = next((m.ge for m in info.metadata if isinstance(m, annotated_types.Ge)), None)
    high = next((m.le for m in info.metadata if isinstance(m, annotated_types.Le)), None)
    if not isinstance(low, int) or not isinstance(high, int):
        return None
    return low, high


def _query(request: Request, model: type[BaseModel], path: dict[str, Any]) -> BaseModel:
    given: dict[str, Any] = {**request.query_params, **path}
    for name, info in model.model_fields.items():
        bounds = _bounds(info)
        if bounds is not None and name in request.query_params:
            # One message per mistake, as every integer query parameter answers it.
            given[name] = int_param(request, name, 0, *bounds)
    try:
        return model.model_validate(given)
    except ValidationError as exc:
        detail = f"path or query parameters do not match {model.__name__}"
        raise InvalidRequest(detail, validation_errors(exc)) from None


def render(
    result: BaseModel | Rendered, status: int = 200, headers: dict[str, str] | None = None
) -> Response:
    """A result model as JSON, leaving out what it did not set (a rendered result as is)."""
    if isinstance(result, Rendered):
        return JSONResponse(result.data, status_code=status, headers=headers)
    body = result.model_dump_json(exclude_unset=True)
    return Response(body, status_code=status, headers=headers, media_type="application/json")


async def _request(row: UseCase, request: Request, path: dict[str, Any]) -> Any:
    """The row's validated request: from the query and path, or the body (and path)."""
    if row.request is None:
        return None
    if row.method in ("GET", "DELETE"):
        return _query(request, row.request, path)
    if row.body is None:
        return parse_model(await read_body(request), row.request)
    body = parse_model(await read_body(request), row.body)
    return _query_free(row.request, {**body.model_dump(exclude_unset=True), **path})


def _query_free(model: type[BaseModel], fields: dict[str, Any]) -> BaseModel:
    try:
        return model.model_validate(fields)
    except ValidationError as exc:
        raise InvalidRequest(
            f"path does not match {model.__name__}", validation_errors(exc)
        ) from None


def route(row: UseCase) -> Route:
    """The route serving `row` at its path under /v1."""

    if row.method in ("POST", "PUT") and row.path_params and row.body is None:
        # Its JSON body would also carry the path's fields (and so would its OpenAPI body).
        raise TypeError(f"{row.name}: a POST or PUT row with path parameters names its body")
    if row.method is None:
        raise TypeError(f"{row.name}: a GraphQL-only row has no route")
    table = row.table

    async def endpoint(request: Request) -> Response:
        path = {k: v for k, v in request.path_params.items() if k in row.path_params}
        grant: RoleToken | None = None
        try:
            if table is not None:
                found = request.path_params[table.param]
                grant = await table.grant(request, found, bearer(request), BEARER)
            args = await _request(row, request, path)
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

    endpoint.__name__ = row.name
    endpoint.__doc__ = f"{row.method} /v1{row.path}: {row.summary}."
    return Route(row.path, endpoint, methods=[row.method], name=row.name)


def routes(rows: Iterable[UseCase]) -> list[BaseRoute]:
    """One route per row served over REST."""
    return [route(row) for row in rows if row.method is not None]
