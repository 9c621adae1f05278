"""GraphQL: DiceProblem and Problem, the expected-failure members of payload unions."""

from __future__ import annotations

import strawberry
from pydantic import ValidationError

from api.bodies import validation_errors
from services.dice import DiceError
from services.errors import DomainError


@strawberry.type(description="A failure the caller can fix: stable code, message, where.")
class DiceProblem:
    code: str
    message: str
    position: int | None = None
    expected: list[str] | None = None

    @classmethod
    def from_domain(cls, error: DiceError) -> DiceProblem:
        """Translate a dice error, keeping its position and expectations."""
        return cls(
            code=error.code,
            message=error.message,
            position=error.position,
            expected=list(error.expected) if error.expected is not None else None,
        )

    @classmethod
    def from_validation(cls, error: ValidationError) -> DiceProblem:
        """An argument outside its bounds: the same code REST uses, `invalid_request`."""
        details = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'input'}: {e['msg']}"
            for e in validation_errors(error)
        )
        return cls(code="invalid_request", message=details)


@strawberry.type(
    description="A failure the caller can fix in a rules request: stable code, message."
)
class Problem:
    code: str
    message: str
    field: str | None = None

    @classmethod
    def from_domain(cls, error: DomainError) -> Problem:
        """Translate any domain error (rules packages, dice)."""
        return cls(code=error.code, message=error.message)

    @classmethod
    def from_validation(cls, error: ValidationError) -> Problem:
        """Arguments outside their bounds: code `invalid_request`, the first bad field named."""
        errors = validation_errors(error)
        details = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'input'}: {e['msg']}" for e in errors
        )
        first = ".".join(str(p) for p in errors[0]["loc"]) if errors else None
        return cls(code="invalid_request", message=details, field=first or None)
