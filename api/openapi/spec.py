"""The declarative shape of a REST operation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

Schema = dict[str, Any]

# Bad API key, body too large, body invalid (or refused by the rules), rate limited.
BODY_ERRORS = (401, 413, 422, 429)


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
