"""GraphQL: expected failures of the session resolvers as Problem union members."""

from __future__ import annotations

from pydantic import ValidationError

from api.graphql.problem import Problem
from api.problems import InvalidRequest
from services.errors import DomainError

EXPECTED = (DomainError, InvalidRequest, ValidationError)


def as_problem(error: Exception) -> Problem:
    """The Problem for an expected failure (the same codes REST uses)."""
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
