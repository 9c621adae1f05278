"""GraphQL types generated from pydantic models: outputs, inputs and enums.

An output type resolves its fields by attribute on the pydantic instance the service
returned (no copy), and recognises that instance in a union (`is_type_of`). Field names
are camelCased by the schema. `Literal`s of strings and `Enum` classes become enums (an
Enum class named as GRAPHQL_NAMES or `Named` says, else as a `Literal` of the same values
or as itself); `Literal`s of ints, `int`; tuples, lists and sets, lists; `LongInt` the
`Long` scalar; `Identifier` the `ID` scalar; a request's dict keyed by an enum (a
profile's stats) an input with a field per member, named as the member's value; a shown
`dict[str, V]` a list of `{key value}` entries; a union of models a GraphQL union (or
their interface); `FreeForm` the `JSON` scalar, recorded in FREE_FORM_FIELDS as a
documented exception. A field's `Field(description=...)` is its GraphQL description.
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
from api.problems import InvalidRequest
from api.usecases.markers import FREE_FORM, GRAPHQL_NAMES, IDENTIFIER, LONG, Named

_OUTPUTS: dict[type[BaseModel], Any] = {}
_INPUTS: dict[type[BaseModel], Any] = {}
_ENUMS: dict[str, tuple[Any, tuple[str, ...]]] = {}
_KEYED: dict[tuple[str, bool], Any] = {}
_UNIONS: dict[str, Any] = {}
_SEQUENCES = (list, tuple, set, frozenset)
# Types that implement a generated interface: the schema lists them (a field typed as the
# interface does not reach them).
IMPLEMENTATIONS: list[Any] = []
# Schema coordinates of every generated JSON field or argument ("Type.fieldName",
# "Query.fieldName(argName)"): the documented free-form exceptions.
FREE_FORM_FIELDS: set[str] = set()
_PLAIN = (str, float, bool)


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
        shared = _shared_interface([_bare(m) for m in members])
        if len(members) > 1 and not is_input and shared is not None:
            inner = output_type(shared)
        elif len(members) > 1 and not is_input and all(_is_model(m) for m in members):
            inner = _union(members, meta, where)
        elif len(members) == 1:
            inner = convert(members[0], meta, where, is_input)
        else:
            raise TypeError(f"{where}: only `X | None` and model unions map to GraphQL")
        return inner | None if type(None) in typing.get_args(tp) else inner
    if origin is typing.Literal and all(type(a) is int for a in typing.get_args(tp)):
        return Long if LONG in meta else int
    if origin is typing.Literal:
        named = [m.name for m in meta if isinstance(m, Named)]
        owner, _, field = where.partition(".")
        name = named[0] if named else GRAPHQL_NAMES.get(tp, owner + _pascal(field))
        return _enum(name, typing.get_args(tp))
    if origin in _SEQUENCES:
        items = [a for a in typing.get_args(tp) if a is not Ellipsis]
        if len(items) != 1 or (origin is tuple and Ellipsis not in typing.get_args(tp)):
            raise TypeError(f"{where}: only homogeneous sequences map to GraphQL lists")
        return list[convert(items[0], [], where, is_input)]  # type: ignore[misc]
    keys = _keys(typing.get_args(tp)[0]) if origin is dict else None
    if keys is not None and not is_input:
        raise TypeError(f"{where}: a dict keyed by an enum maps to GraphQL inputs only")
    if keys is not None:
        return _keyed(keys, typing.get_args(tp)[1], where, _PARTIAL in meta)
    if origin is dict and typing.get_args(tp)[0] is str and not is_input:
        return list[_entry(typing.get_args(tp)[1], where)]  # type: ignore[misc]
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return input_type(tp) if is_input else output_type(tp)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _enum_class(tp, meta)
    if tp is int:
        return Long if LONG in meta else int
    if tp is str and IDENTIFIER in meta:
        return strawberry.ID
    if tp in _PLAIN:
        return tp
    raise TypeError(f"{where}: no GraphQL type for {tp!r} (mark free-form fields FreeForm)")


def _enum_class(tp: type[enum.Enum], meta: list[Any]) -> Any:
    """A Python enum as a GraphQL enum: named by `Named`, else by its area (GRAPHQL_NAMES),
    else as a `Literal` of the same values declared elsewhere, else as the class."""
    values = tuple(str(member.value) for member in tp)
    named = [m.name for m in meta if isinstance(m, Named)]
    if not named and tp in GRAPHQL_NAMES:
        named = [GRAPHQL_NAMES[tp]]
    if not named:
        named = [name for name, (_, known) in _ENUMS.items() if known == values] or [tp.__name__]
    return _enum(named[0], values)


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _bare(tp: Any) -> Any:
    """`X` of `Annotated[X, ...]` (a tagged union member)."""
    return typing.get_args(tp)[0] if typing.get_origin(tp) is typing.Annotated else tp


def _shared_interface(members: list[Any]) -> type[BaseModel] | None:
    """The interface model every member implements (a list of events: the interface)."""
    if not members or not all(_is_model(m) for m in members):
        return None
    shared = [i for i in _interfaces(members[0]) if all(issubclass(m, i) for m in members)]
    return shared[0] if shared else None


def union_of(name: str, members: tuple[Any, ...]) -> Any:
    """The GraphQL union `name` of these object types."""
    parts: Any = typing.Union[members]  # noqa: UP007 - built at run time
    return typing.Annotated[parts, strawberry.union(name)]


def _union(members: list[Any], meta: list[Any], where: str) -> Any:
    """A union of output models, named by its `Named` marker."""
    named = [m.name for m in meta if isinstance(m, Named)]
    if not named:
        raise TypeError(f"{where}: a union of models needs a Named(...) marker")
    found = _UNIONS.get(named[0])
    if found is None:
        found = _UNIONS[named[0]] = union_of(named[0], tuple(map(output_type, members)))
    return found


def _entry(value: Any, where: str) -> Any:
    """A map's entry as GraphQL shows it (`{key, value}`): a map keyed by ids (a member's
    id, a slot id) is a list of entries, its keys in the map's order."""
    owner, _, field = where.partition(".")
    name = owner + _pascal(field) + "Entry"
    found = _KEYED.get((name, False))
    if found is None:
        cls: Any = type(name, (), {"__module__": __name__})
        cls.__annotations__ = {"key": str, "value": convert(value, [], where, False)}
        found = _KEYED[(name, False)] = strawberry.type(cls, name=name)
    return found


def _entries(field: str, entry: Any) -> Any:
    """The resolver of a map field: its entries, in the map's order."""

    def resolve(root: Any) -> list[Any]:
        return [entry(key=k, value=v) for k, v in getattr(root, field).items()]

    return resolve


def _admits_none(tp: Any) -> bool:
    return typing.get_origin(tp) in (typing.Union, types.UnionType) and type(None) in (
        typing.get_args(tp)
    )


def _keys(tp: Any) -> tuple[str, ...] | None:
    """The values of an Enum class or of a `Literal` of strings: a keyed dict's keys."""
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tuple(str(member.value) for member in tp)
    if typing.get_origin(tp) is typing.Literal and all(type(a) is str for a in typing.get_args(tp)):
        return typing.get_args(tp)
    return None


def _keyed(keys: tuple[str, ...], value: Any, where: str, partial: bool) -> Any:
    """A dict keyed by an enum's values, as an argument: an input type with a field per
    key, named as the key (`STR`, `DEX`, …); each optional when the dict's default is
    `{}` (`partial`), else required."""
    owner, _, field = where.partition(".")
    name = owner.removesuffix("Input") + _pascal(field) + "Input"
    found = _KEYED.get((name, True))
    if found is None:
        inner = convert(value, [], where, True)
        cls: Any = type(name, (), {"__module__": __name__})
        cls.__annotations__ = {key: inner | None if partial else inner for key in keys}
        for key in keys if partial else ():
            setattr(cls, key, UNSET)
        found = _KEYED[(name, True)] = strawberry.input(cls, name=name)
    return found


def _description(model: type[BaseModel]) -> str | None:
    doc = (model.__doc__ or "").strip()
    return " ".join(doc.split()) or None


def type_name(model: type[BaseModel]) -> str:
    """A model's GraphQL name: the one its area gave it (GRAPHQL_NAMES), else its own."""
    return GRAPHQL_NAMES.get(model, model.__name__)


def _is_interface(model: type[BaseModel]) -> bool:
    return bool(model.__dict__.get("graphql_interface", False))


def _interfaces(model: type[BaseModel]) -> list[type[BaseModel]]:
    """The interface models `model` implements."""
    return [base for base in model.__mro__[1:] if _is_model(base) and _is_interface(base)]


def output_type(model: type[BaseModel]) -> Any:
    """The GraphQL object type of `model`, named as the model (built once).

    A model whose class sets `graphql_interface = True` is an interface; its subclasses'
    types implement it (listed in IMPLEMENTATIONS, for the schema) and are named with the
    interface's `graphql_suffix` (`MazeStarted` → `MazeStartedEvent`).
    """
    found = _OUTPUTS.get(model)
    if found is not None:
        return found
    model.model_rebuild()  # resolves forward references (self-referring models)
    interface = _is_interface(model)
    bases = tuple(map(output_type, _interfaces(model)))
    name = type_name(model) + ("" if interface else getattr(model, "graphql_suffix", ""))
    cls: Any = type(name, bases, {"__module__": __name__})
    _OUTPUTS[model] = cls  # before the fields: models may refer to themselves
    annotations = {}
    loose = _nullable_in_siblings(model)
    for field, info in model.model_fields.items():
        where = f"{name}.{field}"
        annotations[field] = convert(info.annotation, list(info.metadata), where, False)
        if field in loose and not _admits_none(info.annotation):
            annotations[field] = annotations[field] | None
        if typing.get_origin(annotations[field]) is list and _is_map(info.annotation):
            entry = typing.get_args(annotations[field])[0]
            resolve = _entries(field, entry)
            setattr(cls, field, strawberry.field(resolver=resolve, description=info.description))
        elif info.description:
            setattr(cls, field, strawberry.field(description=info.description))
    cls.__annotations__ = annotations
    description = _description(model)
    if interface:
        return strawberry.interface(cls, name=name, description=description)
    cls.is_type_of = classmethod(lambda _cls, obj, _info: isinstance(obj, model))
    made = strawberry.type(cls, name=name, description=description)
    if bases:
        IMPLEMENTATIONS.append(made)
    return made


def model_of(cls: Any) -> type[BaseModel] | None:
    """The model `output_type` made the strawberry type `cls` of (None for another)."""
    return next((model for model, made in _OUTPUTS.items() if made is cls), None)


def _nullable_in_siblings(model: type[BaseModel]) -> set[str]:
    """Fields of an interface's implementation that another implementation declares
    nullable: nullable here too, so a document may select both under one name (GraphQL
    merges same-named fields of a union or interface only with one response shape)."""
    out: set[str] = set()
    for interface in _interfaces(model):
        for sibling in interface.__subclasses__():
            out.update(
                name
                for name, info in sibling.model_fields.items()
                if name in model.model_fields and _admits_none(info.annotation)
            )
    return out


def _is_map(tp: Any) -> bool:
    """A `dict[str, V]` (or `dict[str, V] | None`) field: GraphQL's list of entries."""
    members = [a for a in typing.get_args(tp) if a is not type(None)] if _admits_none(tp) else [tp]
    return len(members) == 1 and typing.get_origin(members[0]) is dict


def input_type(
    model: type[BaseModel],
    skip: frozenset[str] = frozenset(),
    spelled: dict[str, Any] | None = None,
) -> Any:
    """The GraphQL input type of a nested request model, `<Model>Input` (built once);
    `skip` leaves fields out (a command's `type`, given by the field that holds it) and
    `spelled` names a field's annotation (a union GraphQL spells as a `@oneOf` input)."""
    found = _INPUTS.get(model)
    if found is not None:
        return found
    model.model_rebuild()
    name = f"{type_name(model)}Input"
    cls: Any = type(name, (), {"__module__": __name__})
    _INPUTS[model] = cls
    annotations = {}
    for field, info in model.model_fields.items():
        if field in skip:
            continue
        if spelled and field in spelled:
            default: Any = _REQUIRED if info.is_required() else info.default
            annotations[field] = spelled[field]
        else:
            annotations[field], default = _slot(info, f"{name}.{field}")
        if info.description:
            given = {} if default is _REQUIRED else {"default": default}
            setattr(cls, field, strawberry.field(description=info.description, **given))
        elif default is not _REQUIRED:
            setattr(cls, field, default)
    cls.__annotations__ = annotations
    return strawberry.input(cls, name=name, description=_description(model))


def chosen(value: Any, tag: str, where: str) -> dict[str, Any]:
    """A `@oneOf` input's value (the argument `where`) as the tagged body it stands for
    (`{tag: key, ...}`)."""
    key, fields = member(value, where)
    return {**(fields if isinstance(fields, dict) else {}), tag: key}


def member(value: Any, where: str) -> tuple[str, Any]:
    """A `@oneOf` input's one member: its key and its value. A member chosen by `true`
    (a model with no field left) given `false` chooses nothing: refused, naming it as the
    caller spelled it (`command.rollInitiative`), where it would have chosen anyway."""
    ((key, fields),) = plain(value).items()
    if fields is False:
        field = f"{where}.{to_camel_case(key)}"
        raise InvalidRequest(
            f"{field}: `false` chooses nothing; give `true` to choose it",
            [{"loc": [where, to_camel_case(key)], "msg": "must be true", "type": "literal_error"}],
        )
    return key, fields


def one_of_input(
    name: str, models: dict[str, Any], skip: frozenset[str], description: str | None = None
) -> Any:
    """A `@oneOf` input: one field per model (`flip_card: FlipCardInput`), exactly one of
    which a caller gives (a tagged union as GraphQL spells it); a model with no field
    left is a Boolean (`true`), anything else (an enum) stands as it is."""
    cls: Any = type(name, (), {"__module__": __name__})
    cls.__annotations__ = {key: _choice(m, skip) | None for key, m in models.items()}
    for key in models:
        setattr(cls, key, UNSET)
    return strawberry.input(cls, name=name, one_of=True, description=description)


def _choice(model: Any, skip: frozenset[str]) -> Any:
    if not _is_model(model):
        return model
    # A model with no field left is chosen by `true` (`rollInitiative: true`).
    return input_type(model, skip) if set(model.model_fields) - skip else bool


def arguments(model: type[BaseModel]) -> list[tuple[str, Any, Any]]:
    """(name, annotation, default) of each field of a request model, as GraphQL arguments.

    A scalar default is shown in the schema; other defaults are UNSET (left to pydantic):
    the argument is then nullable, and `without_nulls` drops its null.
    """
    out = []
    for name, info in model.model_fields.items():
        annotation, default = _slot(info, f"{model.__name__}.{name}")
        if info.description:
            annotation = typing.Annotated[
                annotation, strawberry.argument(description=info.description)
            ]
        out.append((name, annotation, UNSET if default is _REQUIRED else default))
    return out


_REQUIRED = object()
_PARTIAL = object()  # a dict field whose default is `{}`: its keys are each optional


def _slot(info: FieldInfo, where: str) -> tuple[Any, Any]:
    """(annotation, default) of a request field as an argument or input field: a scalar
    default is shown in the schema; another default (a list, a model) makes the slot
    optional and nullable, UNSET (left to pydantic); a required field has no default."""
    partial = [_PARTIAL] if info.default == {} else []
    annotation = convert(info.annotation, [*info.metadata, *partial], where, True)
    if info.is_required():
        return annotation, _REQUIRED
    value = info.default  # PydanticUndefined under a default_factory
    if isinstance(annotation, enum.EnumMeta) and value is not None:
        return annotation, annotation(getattr(value, "value", value))  # shown as a member
    if value is None or isinstance(value, int | str | float):
        return annotation, value
    return annotation | None, UNSET


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
