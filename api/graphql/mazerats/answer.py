"""GraphQL: turning Maze Rats arguments into request models and refusals into Problems."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import ValidationError
from pydantic.alias_generators import to_camel

from api.graphql.problem import Problem
from services.mazerats import MazeRatsError

T = TypeVar("T")


def graphql_problem(exc: ValidationError, prefix: str | None = None) -> Problem:
    """A validation Problem whose `field` names the GraphQL argument (camelCase path)."""
    problem = Problem.from_validation(exc)
    if problem.field is not None:
        parts = [p if p.isdigit() else to_camel(p) for p in problem.field.split(".")]
        problem.field = ".".join([prefix, *parts] if prefix else parts)
    return problem


def answer(build: Callable[[], T]) -> T | Problem:
    """Run `build`; validation and rules refusals become Problems (union members)."""
    try:
        return build()
    except ValidationError as exc:
        return graphql_problem(exc)
    except MazeRatsError as exc:
        return Problem.from_domain(exc)


def args(**kwargs: Any) -> dict[str, Any]:
    """The given arguments: an omitted GraphQL argument takes the model's default."""
    return {k: v for k, v in kwargs.items() if v is not None}
