"""The declarative shape of a REST operation and the small schema vocabulary responses use."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

Schema = dict[str, Any]

# Bad API key, body too large, body invalid (or refused by the rules), rate limited.
BODY_ERRORS = (401, 413, 422, 429)

CHANCE: Schema = {"$ref": "#/components/schemas/Chance"}
_TYPES: dict[str, Schema] = {
    "any": {},
    "string": {"type": "string"},
    "integer": {"type": "integer"},
    "number": {"type": "number"},
    "boolean": {"type": "boolean"},
    "object": {"type": "object"},
    "array": {"type": "array"},
    "chance": CHANCE,
    # The dice a rules call threw, when its body asked with `render` (api/rolls.py).
    "dice_rolls": {"type": "array", "items": {"$ref": "#/components/schemas/RollResult"}},
}


def _field(spec: str) -> tuple[str, Schema]:
    """`name`, `name:type` or `name:type?` (nullable) → (name, schema)."""
    name, _, kind = spec.partition(":")
    nullable = kind.endswith("?")
    schema = dict(_TYPES[kind.rstrip("?") or "any"])
    if nullable and schema:
        schema = {"anyOf": [schema, {"type": "null"}]}
    return name, schema


def obj(*fields: str) -> Schema:
    """A loose object schema naming its main fields (extra fields are allowed)."""
    props = dict(_field(f) for f in fields)
    return {"type": "object", "properties": props} if props else {"type": "object"}


def array_of(schema: Schema) -> Schema:
    """An array whose items follow `schema`."""
    return {"type": "array", "items": schema}


@dataclass(frozen=True)
class Param:
    """A path or query parameter."""

    name: str
    where: str  # "path" | "query"
    schema: Schema
    description: str
    required: bool = False

    def to_dict(self) -> Schema:
        """The OpenAPI Parameter Object."""
        return {
            "name": self.name,
            "in": self.where,
            "required": self.required or self.where == "path",
            "description": self.description,
            "schema": self.schema,
        }


@dataclass(frozen=True)
class Operation:
    """One REST operation, as the app serves it under /v1."""

    method: str
    path: str  # OpenAPI template under /v1, e.g. "/v1/sessions/{session_id}"
    operation_id: str
    summary: str
    tag: str
    body: type[BaseModel] | None
    response: Schema
    status: int = 200
    errors: tuple[int, ...] = (422,)
    params: tuple[Param, ...] = ()
    session_token: bool = False
    description: str = ""
    media_type: str = "application/json"
    result: type[BaseModel] | None = None  # a named schema, replacing `response`
    extra: dict[str, Any] = field(default_factory=dict)


def with_token(
    prefix: str, tag: str, errors: tuple[int, ...], params: tuple[Param, ...]
) -> Callable[..., Operation]:
    """A maker of the operations of one table (a session's, a campaign's): each carries
    its role token, answers a named `result`, and takes `errors` and `params` unless it
    says otherwise. `make(method, path under prefix, operationId, summary, body, result)`."""

    def make(
        method: str,
        path: str,
        name: str,
        summary: str,
        body: type[BaseModel] | None,
        result: type[BaseModel],
        **extra: Any,
    ) -> Operation:
        extra.setdefault("errors", errors)
        extra.setdefault("params", params)
        return Operation(
            method, prefix + path, name, summary, tag, body, {}, result=result,
            session_token=True, **extra,
        )  # fmt: skip

    return make
