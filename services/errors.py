"""The root of every error a domain package raises for input a caller can fix."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from pydantic_core import InitErrorDetails, PydanticCustomError


class DomainError(Exception):
    """A refused request: a stable `code`, a message, and the HTTP status it maps to.

    Each package has its own subclass as its root (DiceError, MazeError, ...); the API
    translates any DomainError at the boundary (problem+json, GraphQL problems).
    """

    code = "domain_error"
    http_status = 422

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        position: int | None = None,
        expected: list[str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.position = position
        self.expected = expected

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready description: code, message and, when known, where and what."""
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.position is not None:
            out["position"] = self.position
        if self.expected is not None:
            out["expected"] = self.expected
        return out


def field_error(field: str, message: str) -> ValidationError:
    """A model validator's refusal placed at one of its model's fields.

    Pydantic places a model validator's `ValueError` at the model itself, so the API could
    name no field (GraphQL's `Problem.field` was null). Raised instead, this reads as that
    `ValueError` would ("Value error, ...", type `value_error`: a constraint violation)
    and is placed at `field`, within wherever the model is.
    """
    kind = PydanticCustomError("value_error", "Value error, {reason}", {"reason": message})
    return ValidationError.from_exception_data(
        "ValueError", [InitErrorDetails(type=kind, loc=(field,), input=None)]
    )
