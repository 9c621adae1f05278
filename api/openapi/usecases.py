"""OpenAPI operations of the use-case rows: named request and result schemas."""

from __future__ import annotations

from http import HTTPStatus

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode

from api.openapi.components import Schema
from api.usecases.table import UseCase

# Each body (validation) and result (serialization) model's reference to its component.
Refs = dict[tuple[type[BaseModel], JsonSchemaMode], Schema]


def param(name: str, where: str, schema: Schema, description: str, required: bool) -> Schema:
    """An OpenAPI Parameter Object (`where`: "path" or "query"; a path's is required)."""
    return {
        "name": name,
        "in": where,
        "required": required or where == "path",
        "description": description,
        "schema": schema,
    }


def params(row: UseCase) -> list[Schema]:
    """The row's path parameters and, for a GET or DELETE, its query parameters: fields of
    its request model, with their JSON Schemas."""
    own = []
    if (table := row.table) is not None:
        pattern = {"type": "string", "pattern": table.pattern}
        own.append(param(table.param, "path", pattern, f"The {table.noun}'s id.", True))
    if row.request is None:
        return own
    schema = row.request.model_json_schema()
    required = set(schema.get("required", ()))
    in_query = row.method in ("GET", "DELETE")
    return own + [
        param(
            name,
            "path" if name in row.path_params else "query",
            {k: v for k, v in field.items() if k not in ("title", "description")},
            str(field.get("description", field.get("title", name))),
            name in required,
        )
        for name, field in schema.get("properties", {}).items()
        if name in row.path_params or in_query
    ]


def body(row: UseCase) -> type[BaseModel] | None:
    """The model of the row's JSON body (a POST's or PUT's), if it has one."""
    return (row.body or row.request) if row.method in ("POST", "PUT") else None


def responses(status: int, media_type: str, schema: Schema, errors: tuple[int, ...]) -> Schema:
    """The answer on success, then each error's shared problem+json response."""
    out: Schema = {
        str(status): {
            "description": HTTPStatus(status).phrase,
            "content": {media_type: {"schema": schema}},
        }
    }
    for error in sorted(errors):
        out[str(error)] = {"$ref": f"#/components/responses/Problem{error}"}
    return out


def operation(row: UseCase, refs: Refs) -> Schema:
    """The OpenAPI operation of `row` (its body and result are named components)."""
    out: Schema = {"operationId": row.name, "summary": row.summary, "tags": [row.tag]}
    if row.description:
        out["description"] = row.description
    if parameters := params(row):
        out["parameters"] = parameters
    model = body(row)
    if model is not None:
        # A body whose every field has a default may be left out: it stands for `{}`.
        out["requestBody"] = {
            "required": any(f.is_required() for f in model.model_fields.values()),
            "content": {"application/json": {"schema": refs[(model, "validation")]}},
        }
    result = refs[(row.result, "serialization")]
    errors = row.errors if model is None else (*row.errors, 415)  # a body not sent as JSON
    out["responses"] = responses(row.status, "application/json", result, errors)
    if row.table is not None:
        out["security"] = [{"ApiKey": [], "SessionToken": []}]
    return out
