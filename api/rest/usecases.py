"""The generic REST adapter: one Starlette route per use-case row.

Body (POST) or query string (GET) → the row's request model → its service → its result
model → JSON. A body that does not validate is `invalid_request` problem+json whose
`errors[].loc` are the request model's snake_case field paths; domain errors reach the
app's handlers (api/problems.py). Fields a result left unset are left out.
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
        return model.model_validate(dict(request.query_params))
    except ValidationError as exc:
        detail = f"query parameters do not match {model.__name__}"
        raise InvalidRequest(detail, validation_errors(exc)) from None


def render(result: BaseModel, status: int = 200) -> Response:
    """A result model as JSON, leaving out what it did not set."""
    body = result.model_dump_json(exclude_unset=True)
    return Response(body, status_code=status, media_type="application/json")


def route(row: UseCase) -> Route:
    """The route serving `row` at its path under /v1."""

    async def endpoint(request: Request) -> Response:
        args: Any = None
        if row.request is not None and row.method == "GET":
            args = _query(request, row.request)
        elif row.request is not None:
            args = parse_model(await read_body(request), row.request)
        return render(await execute(row, args, request, "rest"), row.status)

    endpoint.__name__ = row.name
    endpoint.__doc__ = f"{row.method} /v1{row.path}: {row.summary}."
    return Route(row.path, endpoint, methods=[row.method], name=row.name)


def routes(rows: Iterable[UseCase]) -> list[BaseRoute]:
    """One route per row."""
    return [route(row) for row in rows]
