"""Typed GraphQL answers against their REST twins: a selection of every field of a type
(built from the schema), and the answer read back in REST's convention (snake_case keys,
enum values, maps for lists of entries, unset fields left out), so a test can compare a
session's or campaign's GraphQL events and views with what REST answered."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from graphql import (
    GraphQLEnumType,
    GraphQLInputObjectType,
    GraphQLInterfaceType,
    GraphQLList,
    GraphQLNamedType,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLSchema,
    GraphQLType,
    GraphQLUnionType,
)

from api.graphql.schema import schema


def _graphql() -> GraphQLSchema:
    return schema._schema


def _named(tp: GraphQLType) -> GraphQLNamedType:
    while isinstance(tp, GraphQLNonNull | GraphQLList):
        tp = tp.of_type
    assert isinstance(tp, GraphQLNamedType)
    return tp


@cache
def fragments(*roots: str) -> str:
    """`fragment <Type>Fields on <Type> { every field }` for each object type reachable
    from `roots` (abstract types select `__typename` and spread their members)."""
    out: dict[str, str] = {}
    todo = list(roots)
    gql = _graphql()
    while todo:
        name = todo.pop()
        if name in out:
            continue
        tp = gql.type_map[name]
        if isinstance(tp, GraphQLObjectType):
            parts = []
            for field_name, field in tp.fields.items():
                inner = _named(field.type)
                if isinstance(inner, GraphQLObjectType):
                    parts.append(f"{field_name} {{ ...{inner.name}Fields }}")
                    todo.append(inner.name)
                elif isinstance(inner, GraphQLInterfaceType | GraphQLUnionType):
                    members = gql.get_possible_types(inner)
                    spreads = " ".join(f"...{m.name}Fields" for m in members)
                    parts.append(f"{field_name} {{ __typename {spreads} }}")
                    todo.extend(m.name for m in members)
                else:
                    parts.append(f"{field_name}")
            out[name] = f"fragment {name}Fields on {name} {{ {' '.join(parts)} }}"
        elif isinstance(tp, GraphQLInterfaceType | GraphQLUnionType):
            todo.extend(m.name for m in gql.get_possible_types(tp))
    return "\n".join(out[k] for k in sorted(out))


def spread(abstract: str) -> str:
    """`__typename ...AFields ...BFields` for every member of an interface or union."""
    members = _graphql().get_possible_types(_graphql().type_map[abstract])  # type: ignore[arg-type]
    return "__typename " + " ".join(f"...{m.name}Fields" for m in members)


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower() if not name.isupper() else name


def as_rest(value: Any, type_name: str) -> Any:
    """A GraphQL answer of type `type_name` in REST's convention, without nulls."""
    return _read(value, _graphql().type_map[type_name])


def _read(value: Any, tp: GraphQLType) -> Any:
    if value is None:
        return None
    if isinstance(tp, GraphQLNonNull):
        return _read(value, tp.of_type)
    if isinstance(tp, GraphQLList):
        inner = _named(tp.of_type)
        if isinstance(inner, GraphQLObjectType) and set(inner.fields) == {"key", "value"}:
            return {e["key"]: _read(e["value"], inner.fields["value"].type) for e in value}
        return [_read(v, tp.of_type) for v in value]
    if isinstance(tp, GraphQLEnumType):
        member = tp.values[value].value
        return getattr(member, "value", member)
    if isinstance(tp, GraphQLInterfaceType | GraphQLUnionType):
        tp = _graphql().type_map[value["__typename"]]
    if isinstance(tp, GraphQLObjectType):
        out = {}
        for key, item in value.items():
            if key == "__typename" or item is None:
                continue
            out[_snake(key)] = _read(item, tp.fields[key].type)
        return out
    return without_nulls(value)  # a scalar; JSON (a definition) compared as REST's


def without_nulls(value: Any) -> Any:
    """A REST answer without its null fields (GraphQL answers null for an unset field)."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(v) for v in value]
    return value


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def as_input(value: Any, type_name: str) -> Any:
    """A REST body (snake_case, enum values) as the GraphQL input `type_name` takes it."""
    return _write(value, _graphql().type_map[type_name])


def _write(value: Any, tp: GraphQLType) -> Any:
    if value is None:
        return None
    if isinstance(tp, GraphQLNonNull):
        return _write(value, tp.of_type)
    if isinstance(tp, GraphQLList):
        return [_write(v, tp.of_type) for v in value]
    if isinstance(tp, GraphQLEnumType):
        return next(
            name
            for name, member in tp.values.items()
            if getattr(member.value, "value", member.value) == value
        )
    if isinstance(tp, GraphQLInputObjectType):
        return {_camel(k): _write(v, tp.fields[_camel(k)].type) for k, v in value.items()}
    return value


def command_input(command: dict[str, Any]) -> dict[str, Any]:
    """A REST session command (`{"type": "FlipCard", ...}`) as `SessionCommandInput`."""
    fields = {k: v for k, v in command.items() if k not in ("type", "seen_version", "command_id")}
    key = _camel(re.sub(r"(?<!^)(?=[A-Z])", "_", command["type"]).lower())
    field = getattr(_graphql().type_map["SessionCommandInput"], "fields")[key]  # noqa: B009
    return {key: True if _named(field.type).name == "Boolean" else _write(fields, field.type)}
