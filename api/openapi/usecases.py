"""OpenAPI operations of the use-case rows: named request and result schemas."""

from __future__ import annotations

from collections.abc import Iterable

from api.openapi.spec import Operation
from api.usecases.table import UseCase


def operation(row: UseCase) -> Operation:
    """The OpenAPI operation of `row` (its result schema is a named component)."""
    return Operation(
        row.method.lower(),
        "/v1" + row.path,
        row.name,
        row.summary,
        row.tag,
        row.request if row.method == "POST" else None,
        {},
        status=row.status,
        errors=row.errors,
        description=row.description,
        result=row.result,
    )


def operations(rows: Iterable[UseCase]) -> list[Operation]:
    """One operation per row."""
    return [operation(row) for row in rows]
