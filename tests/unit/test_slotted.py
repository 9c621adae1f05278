"""quick_init: the __init__ dataclasses writes, with each slot set through its descriptor."""

from __future__ import annotations

import dataclasses
import inspect
import typing
from dataclasses import InitVar, dataclass, field
from typing import Any, ClassVar

import pytest

from api.clients import Client
from api.tables.tokens import RoleToken
from api.usecases.table import Call, Redacted
from services.labyrinth.events import EVENT_TYPES
from services.labyrinth.records import RiverSlot, SlotCard
from services.labyrinth.redact import Viewer
from services.slotted import quick_init
from services.store.cache import _Entry
from services.store.model import AppendResult, NewEvent, RecordedEvent, Snapshot
from services.store.sessions import Executed, Loaded


def _plain(cls: type) -> type:
    """The same class as dataclasses alone makes it (frozen, slotted)."""
    namespace: dict[str, Any] = {"__annotations__": {}}
    for f in dataclasses.fields(cls):
        namespace["__annotations__"][f.name] = f.type
        namespace[f.name] = field(
            default=f.default,
            default_factory=f.default_factory,
            compare=f.compare,
            repr=f.repr,
            kw_only=f.kw_only,
        )
    return dataclass(frozen=True, slots=True)(type(cls.__name__, (), namespace))


@quick_init
@dataclass(frozen=True, slots=True)
class _Mixed:
    """Positional and keyword-only fields, with defaults and factories, interleaved."""

    a: int
    b: str = field(kw_only=True)
    c: tuple[int, ...] = ()
    d: list[int] = field(default_factory=list, kw_only=True)
    e: dict[str, int] = field(default_factory=dict)
    f: int = field(default=7, kw_only=True)


def _described(parameter: inspect.Parameter) -> tuple[str, Any, Any, Any]:
    """A parameter's name, kind, default (either's default-factory marker as one) and
    annotation."""
    default = "<factory>" if repr(parameter.default) == "<factory>" else parameter.default
    return parameter.name, parameter.kind, default, parameter.annotation


def _values(record: Any) -> list[Any]:
    return [getattr(record, f.name) for f in dataclasses.fields(record)]


QUICK = [
    _Mixed,
    *(NewEvent, RecordedEvent, AppendResult, Snapshot, Loaded, Executed, _Entry),
    *(SlotCard, RiverSlot, Viewer, *EVENT_TYPES),
    *(Call, Redacted, Client, RoleToken),
]


@pytest.mark.parametrize("cls", QUICK, ids=lambda c: c.__name__)
def test_a_quick_init_takes_what_the_dataclass_init_takes_and_builds_the_same(cls: type) -> None:
    plain = _plain(cls)
    assert vars(cls)["__init__"] is not vars(plain)["__init__"]
    ours = inspect.signature(cls).parameters.values()
    theirs = inspect.signature(plain).parameters.values()
    assert [_described(p) for p in ours] == [_described(p) for p in theirs]
    required = [p for p in theirs if p.default is inspect.Parameter.empty]
    values = {p.name: (n, f"v{n}") for n, p in enumerate(required)}
    built, expected = cls(**values), plain(**values)
    keyword_only = {
        p.name: values[p.name] for p in required if p.kind is inspect.Parameter.KEYWORD_ONLY
    }
    in_order = [values[p.name] for p in required if p.name not in keyword_only]
    positional = cls(*in_order, **keyword_only)
    for f in dataclasses.fields(cls):
        assert getattr(built, f.name) == getattr(expected, f.name)
        assert getattr(positional, f.name) == getattr(expected, f.name)
    assert built == positional
    every = {f.name: (f.name,) for f in dataclasses.fields(cls)}  # no default used
    assert _values(cls(**every)) == _values(plain(**every)) == list(every.values())
    try:
        expected_hash = hash(expected)
    except TypeError:  # a field holds a dict
        pass
    else:
        assert hash(built) == hash(positional) == expected_hash
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.__setattr__(dataclasses.fields(cls)[0].name, None)
    with pytest.raises(TypeError):
        cls(*in_order, *range(len(dataclasses.fields(cls)) + 1), **keyword_only)  # too many
    if keyword_only:
        with pytest.raises(TypeError):
            cls(*in_order, *keyword_only.values())  # a keyword-only one given by position


def test_a_default_factory_makes_a_fresh_value_each_time() -> None:
    assert _Mixed(1, b="x").d is not _Mixed(1, b="x").d
    assert _Mixed(1, b="x").f == 7 and _Mixed(1, b="x").c == ()
    first, second = NewEvent("a", "T"), NewEvent("b", "T")
    assert first.data == {} and first.data is not second.data
    given = {"x": 1}
    assert NewEvent("c", "T", given).data is given
    assert RecordedEvent("s", 1, 2, "i", "T", {}).fingerprint is None


def test_what_it_cannot_copy_exactly_is_refused_when_the_class_is_defined() -> None:
    @dataclass(frozen=True)
    class Unslotted:
        a: int

    @dataclass(slots=True)
    class Thawed:
        a: int

    @dataclass(frozen=True, slots=True)
    class AfterInit:
        a: int

        def __post_init__(self) -> None:
            pass

    @dataclass(frozen=True, slots=True)
    class InitOnly:
        a: int
        b: InitVar[int]

    @dataclass(frozen=True, slots=True)
    class Derived:
        a: int
        b: int = field(init=False, default=0)

    @dataclass(frozen=True, slots=True)
    class WithClassVar:
        a: int
        kind: ClassVar[str] = "x"

    @dataclass(frozen=True, slots=True, init=False)
    class NoInit:
        a: int

    @dataclass(frozen=True, slots=True)
    class OwnInit:
        a: int

        def __init__(self, raw: str) -> None:
            object.__setattr__(self, "a", int(raw))

    refused = (Unslotted, Thawed, AfterInit, InitOnly, Derived, WithClassVar, NoInit, OwnInit)
    for cls in refused:
        with pytest.raises(TypeError):
            quick_init(cls)


def test_its_annotations_resolve_as_the_fields_do() -> None:
    # Written with the class's module as its globals: a name the module defines resolves.
    hints = typing.get_type_hints(Viewer.__init__)
    assert hints["role"] == typing.get_type_hints(Viewer)["role"] and hints["return"] is type(None)
