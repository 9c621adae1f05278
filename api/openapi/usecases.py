"""OpenAPI operations of the use-case rows: named request and result schemas."""

from __future__ import annotations

from collections.abc import Iterable

from api.openapi.spec import Operation, Param, Schema
from api.usecases.table import UseCase


def params(row: UseCase) -> tuple[Param, ...]:
    """The row's path parameters and, for a GET or DELETE, its query parameters: fields of
    its request model, with their JSON Schemas."""
    if row.request is None:
        return ()
    schema = row.request.model_json_schema()
    fields: dict[str, Schema] = schema.get("properties", {})
    required = set(schema.get("required", ()))
    in_query = row.method in ("GET", "DELETE")
    return tuple(
        Param(
            name,
            "path" if name in row.path_params else "query",
            {k: v for k, v in field.items() if k not in ("title", "description")},
            str(field.get("description", field.get("title", name))),
            required=name in required,
        )
        for name, field in fields.items()
        if name in row.path_params or in_query
    )


def operation(row: UseCase) -> Operation:
    """The OpenAPI operation of `row` (its result schema is a named component)."""
    return Operation(
        row.method.lower(),
        "/v1" + row.path,
        row.name,
        row.summary,
        row.tag,
        row.request if row.method in ("POST", "PUT") else None,
        {},
        status=row.status,
        errors=row.errors,
        params=params(row),
        description=row.description,
        result=row.result,
    )


def operations(rows: Iterable[UseCase]) -> list[Operation]:
    """One operation per row."""
    return [operation(row) for row in rows]
