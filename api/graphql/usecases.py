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

from api.graphql.context import Info
from api.graphql.generate import (
    FREE_FORM_FIELDS,
    arguments,
    output_type,
    plain,
    without_nulls,
)
from api.graphql.problem import Problem
from api.usecases.run import execute
from api.usecases.table import GraphQLKind, UseCase
from services.errors import DomainError

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


def resolver(row: UseCase) -> Any:
    """The resolver of `row`: arguments → request model → service → result or Problem."""

    async def resolve(info: Info, **kwargs: Any) -> Any:
        request: Any = None
        if row.request is not None:
            given = {k: plain(v) for k, v in kwargs.items() if v is not UNSET}
            try:
                request = row.request.model_validate(without_nulls(row.request, given))
            except ValidationError as exc:
                return Problem.from_validation(exc, camel=True)
        try:
            return await execute(row, request, info.context["request"], "graphql")
        except DomainError as exc:
            return Problem.from_domain(exc)

    params = [inspect.Parameter("info", inspect.Parameter.KEYWORD_ONLY, annotation=Info)]
    model = row.request
    for name, annotation, default in arguments(model) if model is not None else ():
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
