"""GraphQL: Problem, the one expected-failure member of every payload union."""

from __future__ import annotations

import strawberry
from pydantic import ValidationError
from strawberry.utils.str_converters import to_camel_case

from api.bodies import validation_errors
from api.problems import InvalidRequest, invalid_request_code
from services.errors import DomainError


def _path(loc: list[object]) -> str:
    """A refused field's location as GraphQL spells it (camelCase)."""
    return ".".join(to_camel_case(p) if isinstance(p, str) else str(p) for p in loc)


@strawberry.type(
    description="A failure the caller can fix: a stable code, a message, and where: the "
    "argument path (`field`, camelCase) or the position in a dice expression."
)
class Problem:
    code: str
    message: str
    field: str | None = None
    position: int | None = None
    expected: list[str] | None = None

    @classmethod
    def from_domain(cls, error: DomainError) -> Problem:
        """Translate any domain error (rules packages, dice), keeping where it went wrong."""
        expected = list(error.expected) if error.expected is not None else None
        return cls(
            code=error.code,
            message=error.message,
            field=getattr(error, "field", None),
            position=error.position,
            expected=expected,
        )

    @classmethod
    def from_validation(cls, error: ValidationError) -> Problem:
        """Arguments outside their bounds: code `invalid_request` (`constraint_violation`
        for a constraint the schema states only in words), the first bad field named as
        GraphQL spells it."""
        errors = validation_errors(error)
        details = "; ".join(f"{_path(e['loc']) or 'input'}: {e['msg']}" for e in errors)
        first = _path(errors[0]["loc"]) if errors else None
        code = invalid_request_code(errors)
        return cls(code=code, message=details, field=first or None)


EXPECTED = (DomainError, InvalidRequest, ValidationError)


def as_problem(error: Exception) -> Problem:
    """The Problem for an expected failure of a hand-written resolver (the REST codes;
    a field path as GraphQL spells it, camelCase)."""
    if isinstance(error, ValidationError):
        return Problem.from_validation(error)
    if isinstance(error, InvalidRequest):
        first = error.errors[0]["loc"] if error.errors else []
        return Problem(
            code=error.code,
            message=error.detail,
            field=".".join(str(p) for p in first) or None,
        )
    assert isinstance(error, DomainError)
    return Problem.from_domain(error)
