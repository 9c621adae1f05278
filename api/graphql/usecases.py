"""The GraphQL field factory: one root field per use-case row.

Each row's request model fields are the field's arguments (camelCase; nested models are
`<Model>Input` types, literals enums); it answers `<Result>Payload`, the union of the
row's result type and `Problem`. Arguments that do not validate are a `Problem` coded
`invalid_request` whose `field` is the camelCase argument path; a domain error is a
`Problem` with its own code, position and expectations.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from typing import Annotated, Any, Union

import strawberry
from pydantic import BaseModel, ValidationError
from strawberry.types.unset import UNSET
from strawberry.utils.str_converters import to_camel_case

from api.graphql.compiled import from_resolved, planned
from api.graphql.context import Info
from api.graphql.generate import (
    FREE_FORM_FIELDS,
    arguments,
    output_type,
    plain,
    without_nulls,
)
from api.graphql.problem import EXPECTED, Problem, as_problem
from api.tables.tokens import RoleToken
from api.usecases.run import execute
from api.usecases.table import GraphQLKind, Redacted, UseCase

ARGUMENT = "the `token` argument"

_PAYLOADS: dict[type[BaseModel], Any] = {}


def payload(result: type[BaseModel]) -> Any:
    """`<Result>Payload`: the result's type or the Problem explaining a refusal."""
    found = _PAYLOADS.get(result)
    if found is None:
        members: Any = Union[output_type(result), Problem]  # noqa: UP007 - built at run time
        found = _PAYLOADS[result] = Annotated[
            members, strawberry.union(f"{result.__name__}Payload")
        ]
    return found


def _validated(row: UseCase, kwargs: dict[str, Any]) -> Any:
    """The row's request from its arguments, or the Problem naming the refused field."""
    if row.request is None:
        return None
    given = {k: v for k, v in kwargs.items() if v is not UNSET}
    if row.from_graphql is not None:
        given = row.from_graphql(given)
    else:
        given = without_nulls(row.request, {k: plain(v) for k, v in given.items()})
    try:
        return row.request.model_validate({**given, **dict(row.fixed)})
    except ValidationError as exc:
        problem = Problem.from_validation(exc)
        if row.problem_field is not None and problem.field:
            named = row.problem_field(given, problem.field)
            if problem.message.startswith(f"{problem.field}:"):  # as the client named it
                problem.message = named + problem.message[len(problem.field) :]
            problem.field = named
        return problem


def resolver(row: UseCase) -> Any:
    """The resolver of `row`: arguments → request model → service → result or Problem.
    A table row first verifies its `token` for the table `id`."""
    table = row.table

    async def resolve(info: Info, **kwargs: Any) -> Any:
        done, value = from_resolved(info)  # a plan already ran it (api/graphql/compiled.py)
        if done:
            return value
        conn = info.context["request"]
        grant: RoleToken | None = None
        try:
            if table is not None:
                found, token = str(kwargs.pop("id")), kwargs.pop("token")
                grant = table.kind.grant(conn, found, token, ARGUMENT)
            request = _validated(row, kwargs)
            if isinstance(request, Problem):
                return request
            shown = getattr(info, "shown", None)  # a plan's (api/graphql/compiled.py)
            result = await execute(row, request, conn, "graphql", grant, shown)
        except EXPECTED as exc:
            return as_problem(exc)
        if isinstance(result, Redacted) and not planned(info):
            return result.typed(result.data)
        return result  # a plan completes a Redacted result's data (api/graphql/compiled.py)

    params = [inspect.Parameter("info", inspect.Parameter.KEYWORD_ONLY, annotation=Info)]
    if table is not None:
        for name, annotation in (("id", strawberry.ID), ("token", str)):
            kind = inspect.Parameter.KEYWORD_ONLY
            params.append(inspect.Parameter(name, kind, annotation=annotation))
    model = row.request
    declared = row.graphql_args
    if declared is None:
        fixed = dict(row.fixed)
        every = arguments(model) if model is not None else []
        declared = tuple(a for a in every if a[0] not in fixed)
    for name, annotation, default in declared:
        if model is not None and f"{model.__name__}.{to_camel_case(name)}" in FREE_FORM_FIELDS:
            root = "Query" if row.graphql == "query" else "Mutation"
            FREE_FORM_FIELDS.add(f"{root}.{to_camel_case(row.field)}({to_camel_case(name)})")
        kind = inspect.Parameter.KEYWORD_ONLY
        params.append(inspect.Parameter(name, kind, annotation=annotation, default=default))
    resolve.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        params, return_annotation=payload(row.result)
    )
    resolve.__name__ = row.field
    return resolve


def root_type(name: str, rows: Iterable[UseCase], kind: GraphQLKind) -> Any:
    """A root type (to merge into Query or Mutation) with a field per row of `kind`."""
    make = strawberry.field if kind == "query" else strawberry.mutation
    namespace: dict[str, Any] = {"__module__": __name__}
    for row in rows:
        if row.graphql == kind:
            description = row.summary + (f". {row.description}" if row.description else ".")
            namespace[row.field] = make(resolver=resolver(row), description=description)
    return strawberry.type(type(name, (), namespace), name=name)
