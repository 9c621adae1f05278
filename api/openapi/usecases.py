"""OpenAPI operations of the use-case rows: named request and result schemas."""

from __future__ import annotations

from collections.abc import Iterable

from api.openapi.spec import Operation, Param, Schema
from api.usecases.table import Table, UseCase


def _table_param(table: Table) -> Param:
    return Param(
        table.param, "path", {"type": "string", "pattern": table.pattern}, f"The {table.noun}'s id."
    )


def params(row: UseCase) -> tuple[Param, ...]:
    """The row's path parameters and, for a GET or DELETE, its query parameters: fields of
    its request model, with their JSON Schemas."""
    own = (_table_param(row.table),) if row.table is not None else ()
    if row.request is None:
        return own
    schema = row.request.model_json_schema()
    fields: dict[str, Schema] = schema.get("properties", {})
    required = set(schema.get("required", ()))
    in_query = row.method in ("GET", "DELETE")
    return own + tuple(
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
    assert row.method is not None
    return Operation(
        row.method.lower(),
        "/v1" + row.path,
        row.name,
        row.summary,
        row.tag,
        (row.body or row.request) if row.method in ("POST", "PUT") else None,
        {},
        status=row.status,
        errors=row.errors,
        params=params(row),
        description=row.description,
        result=row.result,
        session_token=row.table is not None,
    )


def operations(rows: Iterable[UseCase]) -> list[Operation]:
    """One operation per row served over REST."""
    return [operation(row) for row in rows if row.method is not None]
