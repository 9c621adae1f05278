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

from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from api.bodies import parse_model, read_body, validation_errors
from api.problems import InvalidRequest
from api.usecases.run import execute
from api.usecases.table import UseCase


def _query(request: Request, model: type[BaseModel]) -> BaseModel:
    try:
        return model.model_validate({**request.query_params, **request.path_params})
    except ValidationError as exc:
        detail = f"path or query parameters do not match {model.__name__}"
        raise InvalidRequest(detail, validation_errors(exc)) from None


def render(result: BaseModel, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """A result model as JSON, leaving out what it did not set."""
    body = result.model_dump_json(exclude_unset=True)
    return Response(body, status_code=status, headers=headers, media_type="application/json")


def route(row: UseCase) -> Route:
    """The route serving `row` at its path under /v1."""

    if row.method in ("POST", "PUT") and row.path_params:
        # Its JSON body would also carry the path's fields (and so would its OpenAPI body).
        raise TypeError(f"{row.name}: path parameters are for GET and DELETE rows")

    async def endpoint(request: Request) -> Response:
        args: Any = None
        if row.request is not None and row.method in ("GET", "DELETE"):
            args = _query(request, row.request)
        elif row.request is not None:
            args = parse_model(await read_body(request), row.request)
        result = await execute(row, args, request, "rest")
        return render(result, row.status, row.headers(result) if row.headers else None)

    endpoint.__name__ = row.name
    endpoint.__doc__ = f"{row.method} /v1{row.path}: {row.summary}."
    return Route(row.path, endpoint, methods=[row.method], name=row.name)


def routes(rows: Iterable[UseCase]) -> list[BaseRoute]:
    """One route per row."""
    return [route(row) for row in rows]
