"""GraphQL: validating Haze arguments into models; a refusal names the argument (camelCase)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from strawberry.scalars import JSON

from api.graphql.problem import Problem, graphql_problem
from api.models import RequestModel, Seed
from services.dice import new_seed
from services.haze import HazeError, HazeRules

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


class Invalid(Exception):
    """An argument the models refuse, already rendered as a Problem."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


class _Seeded(RequestModel):
    """The bounds of a seed argument, as REST checks them."""

    seed: Seed | None = None


def checked(model: type[M], data: Any, argument: str | None = None) -> M:
    """Validate `data` as `model`; errors name `argument.field` in camelCase."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise Invalid(graphql_problem(exc, argument)) from None


def table_rules(rules: JSON | None) -> HazeRules:
    """The `rules` argument (camelCase or snake_case keys)."""
    return checked(HazeRules, rules if rules is not None else {}, "rules")


def seed_or_new(seed: str | None) -> str:
    """The seed argument (at most 256 characters), or a fresh one."""
    checked_seed = checked(_Seeded, {"seed": seed}).seed
    return checked_seed if checked_seed is not None else new_seed()


def answered(build: Callable[[], T]) -> T | Problem:
    """Run `build`; refused arguments and rules refusals become the union's Problem."""
    try:
        return build()
    except Invalid as exc:
        return exc.problem
    except HazeError as exc:
        return Problem.from_domain(exc)
