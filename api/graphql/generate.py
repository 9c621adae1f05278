"""GraphQL types generated from pydantic models: outputs, inputs and enums.

An output type resolves its fields by attribute on the pydantic instance the service
returned (no copy), and recognises that instance in a union (`is_type_of`). Field names
are camelCased by the schema. `Literal`s of strings and `Enum` classes become enums (an
Enum class named as GRAPHQL_NAMES or `Named` says, else as itself); `Literal`s of ints,
`int`; tuples, lists and sets, lists; `LongInt` the `Long` scalar; `Identifier` the `ID`
scalar; a request's dict keyed by an enum (a profile's stats) an input with a field per
member, named as the member's value; `FreeForm` the `JSON` scalar, recorded in
FREE_FORM_FIELDS as a documented exception.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import types
import typing
from typing import Any

import strawberry
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from strawberry.scalars import JSON
from strawberry.types.unset import UNSET
from strawberry.utils.str_converters import to_camel_case

from api.graphql.scalars import Long
from api.usecases.markers import FREE_FORM, GRAPHQL_NAMES, IDENTIFIER, LONG, Named

_OUTPUTS: dict[type[BaseModel], Any] = {}
_INPUTS: dict[type[BaseModel], Any] = {}
_ENUMS: dict[str, tuple[Any, tuple[str, ...]]] = {}
_KEYED: dict[str, Any] = {}
# Schema coordinates of every generated JSON field or argument ("Type.fieldName",
# "Query.fieldName(argName)"): the documented free-form exceptions.
FREE_FORM_FIELDS: set[str] = set()
_PLAIN = (str, float, bool)
_SEQUENCES = (list, tuple, set, frozenset)


def _pascal(name: str) -> str:
    camel = to_camel_case(name)
    return camel[:1].upper() + camel[1:]


def _enum(name: str, values: tuple[str, ...]) -> Any:
    found = _ENUMS.get(name)
    if found is not None:
        if found[1] != values:
            raise TypeError(f"enum {name} declared with two value sets")
        return found[0]
    members = {re.sub(r"\W", "_", value.upper()): value for value in values}
    if len(members) != len(values):
        raise TypeError(f"enum {name}: two values spell the same GraphQL name")
    made: Any = strawberry.enum(enum.Enum(name, members, type=str), name=name)  # type: ignore[call-overload]
    _ENUMS[name] = (made, values)
    return made


def convert(tp: Any, meta: list[Any], where: str, is_input: bool) -> Any:
    """The strawberry annotation of a pydantic annotation; `where` is Type.field."""
    origin = typing.get_origin(tp)
    if origin is typing.Annotated:
        return convert(typing.get_args(tp)[0], [*meta, *tp.__metadata__], where, is_input)
    if FREE_FORM in meta:
        owner, _, field = where.partition(".")
        FREE_FORM_FIELDS.add(f"{owner}.{to_camel_case(field)}")
        return JSON | None if tp is Any or _admits_none(tp) else JSON
    if origin in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(members) != 1:
            raise TypeError(f"{where}: only `X | None` unions map to GraphQL")
        inner = convert(members[0], meta, where, is_input)
        return inner | None
    if origin is typing.Literal and all(type(a) is int for a in typing.get_args(tp)):
        return Long if LONG in meta else int
    if origin is typing.Literal:
        named = [m.name for m in meta if isinstance(m, Named)]
        owner, _, field = where.partition(".")
        name = named[0] if named else GRAPHQL_NAMES.get(tp, owner + _pascal(field))
        return _enum(name, typing.get_args(tp))
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        named = [m.name for m in meta if isinstance(m, Named)]
        name = named[0] if named else GRAPHQL_NAMES.get(tp, tp.__name__)
        return _enum(name, tuple(str(m.value) for m in tp))
    if origin in _SEQUENCES:
        items = [a for a in typing.get_args(tp) if a is not Ellipsis]
        if len(items) != 1 or (origin is tuple and Ellipsis not in typing.get_args(tp)):
            raise TypeError(f"{where}: only homogeneous sequences map to GraphQL lists")
        return list[convert(items[0], [], where, is_input)]  # type: ignore[misc]
    if origin is dict and issubclass(typing.get_args(tp)[0], enum.Enum):
        return _keyed(typing.get_args(tp)[0], typing.get_args(tp)[1], where, is_input)
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return input_type(tp) if is_input else output_type(tp)
    if tp is int:
        return Long if LONG in meta else int
    if tp is str and IDENTIFIER in meta:
        return strawberry.ID
    if tp in _PLAIN:
        return tp
    raise TypeError(f"{where}: no GraphQL type for {tp!r} (mark free-form fields FreeForm)")


def _description(model: type[BaseModel]) -> str | None:
    doc = (model.__doc__ or "").strip()
    return " ".join(doc.split()) or None


def _admits_none(tp: Any) -> bool:
    return typing.get_origin(tp) in (typing.Union, types.UnionType) and type(None) in (
        typing.get_args(tp)
    )


def _keyed(keys: type[enum.Enum], value: Any, where: str, is_input: bool) -> Any:
    """A dict with a value for every member of `keys`, as an argument: an input type with
    a field per member, named as the member's value (`STR`, `DEX`, …)."""
    if not is_input:
        raise TypeError(f"{where}: a dict keyed by an enum maps to GraphQL inputs only")
    owner, _, field = where.partition(".")
    name = owner.removesuffix("Input") + _pascal(field) + "Input"
    found = _KEYED.get(name)
    if found is None:
        inner = convert(value, [], where, is_input)
        cls: Any = type(name, (), {"__module__": __name__})
        cls.__annotations__ = {str(member.value): inner for member in keys}
        found = _KEYED[name] = strawberry.input(cls, name=name)
    return found


def type_name(model: type[BaseModel]) -> str:
    """A model's GraphQL name: the one its area gave it (GRAPHQL_NAMES), else its own."""
    return GRAPHQL_NAMES.get(model, model.__name__)


def output_type(model: type[BaseModel]) -> Any:
    """The GraphQL object type of `model`, named as the model (built once)."""
    found = _OUTPUTS.get(model)
    if found is not None:
        return found
    model.model_rebuild()  # resolves forward references (self-referring models)
    name = type_name(model)
    cls: Any = type(name, (), {"__module__": __name__})
    _OUTPUTS[model] = cls  # before the fields: models may refer to themselves
    cls.__annotations__ = {
        field: convert(info.annotation, list(info.metadata), f"{name}.{field}", False)
        for field, info in model.model_fields.items()
    }
    cls.is_type_of = classmethod(lambda _cls, obj, _info: isinstance(obj, model))
    return strawberry.type(cls, name=name, description=_description(model))


def input_type(model: type[BaseModel]) -> Any:
    """The GraphQL input type of a nested request model, `<Model>Input` (built once)."""
    found = _INPUTS.get(model)
    if found is not None:
        return found
    model.model_rebuild()
    name = f"{type_name(model)}Input"
    cls: Any = type(name, (), {"__module__": __name__})
    _INPUTS[model] = cls
    annotations = {}
    for field, info in model.model_fields.items():
        where = f"{name}.{field}"
        annotation = convert(info.annotation, list(info.metadata), where, True)
        if not info.is_required():
            annotation, default = _optional(info, annotation)
            setattr(cls, field, default)
        annotations[field] = annotation
    cls.__annotations__ = annotations
    return strawberry.input(cls, name=name, description=_description(model))


def _optional(info: FieldInfo, annotation: Any) -> tuple[Any, Any]:
    """(annotation, default) of a field that may be left out: a scalar default is shown
    in the schema; any other is UNSET (left to pydantic) and the field nullable."""
    value = info.default  # PydanticUndefined under a default_factory
    if isinstance(annotation, enum.EnumMeta) and value is not None:
        return annotation, annotation(getattr(value, "value", value))  # shown as a member
    if value is None or isinstance(value, int | str | float):
        return annotation, value
    return annotation | None, UNSET  # a list or model default: null meaning absent


def arguments(model: type[BaseModel]) -> list[tuple[str, Any, Any]]:
    """(name, annotation, default) of each field of a request model, as GraphQL arguments.

    A scalar default is shown in the schema; other defaults are UNSET (left to pydantic):
    the argument is then nullable, and `without_nulls` drops its null.
    """
    out = []
    for name, info in model.model_fields.items():
        annotation = convert(info.annotation, list(info.metadata), f"{model.__name__}.{name}", True)
        default: Any = UNSET
        if not info.is_required():
            annotation, default = _optional(info, annotation)
        out.append((name, annotation, default))
    return out


def plain(value: Any) -> Any:
    """A GraphQL argument value as the JSON-like value the request model validates."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, list):
        return [plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: plain(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if getattr(value, f.name) is not UNSET
        }
    return value


def without_nulls(model: type[BaseModel], given: dict[str, Any]) -> dict[str, Any]:
    """`given` less the nulls of arguments whose field does not take null (an optional
    list or model argument: null is taken as absent)."""
    fields = model.model_fields
    return {
        k: v
        for k, v in given.items()
        if v is not None
        or fields[k].is_required()
        or fields[k].default is None
        or _admits_none(fields[k].annotation)
    }
