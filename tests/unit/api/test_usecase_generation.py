"""GraphQL types generated from pydantic models, and the use-case rows they serve."""

from __future__ import annotations

import enum
from typing import Annotated, Any, Literal

import pytest
import strawberry
from pydantic import BaseModel, ValidationError
from strawberry.types.unset import UNSET

from api.graphql.generate import (
    FREE_FORM_FIELDS,
    arguments,
    convert,
    input_type,
    plain,
    without_nulls,
)
from api.graphql.problem import Problem
from api.graphql.scalars import Long
from api.graphql.schema import schema
from api.models import FairRollRequest, RollRequest
from api.usecases.markers import FREE_FORM, FreeForm, LongInt, Named
from api.usecases.rows import ROWS


def test_an_untyped_field_is_refused_at_generation() -> None:
    with pytest.raises(TypeError, match=r"Loose\.anything"):
        convert(dict[str, Any], [], "Loose.anything", is_input=False)


def test_only_ints_marked_long_become_the_long_scalar() -> None:
    assert convert(LongInt, [], "T.total", is_input=False) is Long
    assert convert(int, [], "T.order", is_input=False) is int


def test_a_literal_becomes_a_named_enum_of_its_values() -> None:
    enum = convert(Annotated[Literal["a_b", "c"], Named("Letters")], [], "T.x", False)
    assert [m.value for m in enum] == ["a_b", "c"]
    assert plain([enum("a_b")]) == ["a_b"]


class Colour(enum.StrEnum):
    DEEP_RED = "deep_red"
    BLUE = "blue"


def test_an_enum_class_becomes_an_enum_named_as_the_class_or_as_named() -> None:
    made = convert(Colour, [], "T.colour", is_input=True)
    assert made.__name__ == "Colour" and [m.value for m in made] == ["deep_red", "blue"]
    assert plain(made("blue")) == "blue" and Colour(plain(made("blue"))) is Colour.BLUE
    renamed = convert(Annotated[Colour, Named("Paint")], [], "T.paint", is_input=False)
    assert renamed.__name__ == "Paint"


def test_int_literals_are_ints_and_tuples_and_sets_are_lists() -> None:
    assert convert(Literal[4, 6, 8], [], "T.die", is_input=True) is int
    assert convert(tuple[int, ...], [], "T.faces", is_input=False) == list[int]
    assert convert(frozenset[str], [], "T.tags", is_input=True) == list[str]
    with pytest.raises(TypeError, match=r"T\.pair"):
        convert(tuple[int, str], [], "T.pair", is_input=False)


def test_an_input_s_defaulted_fields_are_optional_with_their_defaults() -> None:
    class Knob(BaseModel):
        name: str
        turns: int = 0
        colour: Colour = Colour.BLUE
        tags: frozenset[str] = frozenset()

    made = input_type(Knob)

    def knob(knob: Any) -> int:
        return 0

    knob.__annotations__ = {"knob": made, "return": int}
    query = strawberry.type(type("Q", (), {"knob": strawberry.field(resolver=knob)}))
    sdl = str(strawberry.Schema(query=query))
    assert "name: String!\n" in sdl and "turns: Int! = 0\n" in sdl
    assert "colour: Colour! = BLUE\n" in sdl and "tags: [String!]\n" in sdl
    args = {name: default for name, _, default in arguments(Knob)}
    assert args["turns"] == 0 and args["colour"].value == "blue" and args["tags"] is UNSET


def test_an_optional_free_form_argument_is_nullable_json() -> None:
    class Packed(BaseModel):
        pack: Annotated[dict[str, int] | None, FREE_FORM] = None

    [(name, annotation, default)] = arguments(Packed)
    assert (name, default) == ("pack", None) and "Optional" in str(annotation)


def test_free_form_fields_are_recorded_as_documented_exceptions() -> None:
    class Doc(BaseModel):
        data_blob: FreeForm

    info = Doc.model_fields["data_blob"]
    convert(info.annotation, list(info.metadata), "Doc.data_blob", False)
    assert "Doc.dataBlob" in FREE_FORM_FIELDS
    assert "RollResult.foundry" in FREE_FORM_FIELDS  # the schema's own


def test_a_refused_argument_names_its_graphql_path() -> None:
    with pytest.raises(ValidationError) as caught:
        FairRollRequest.model_validate(
            {"commitment_id": "x", "client_seed": "", "nonce": 1, "expression": "1d6"}
        )
    problem = Problem.from_validation(caught.value, camel=True)
    assert (problem.code, problem.field) == ("invalid_request", "clientSeed")


def test_a_null_list_argument_means_its_default() -> None:
    given = without_nulls(RollRequest, {"expression": "1d6", "seed": None, "render": None})
    assert RollRequest.model_validate(given).render == []
    assert given["seed"] is None  # null is the seed's own default


def test_every_row_is_served_once_on_each_transport() -> None:
    names = [row.name for row in ROWS]
    assert len(names) == len(set(names))
    sdl = str(schema)
    for row in ROWS:
        assert f"{row.result.__name__}Payload" in sdl
    assert "DiceProblem" not in sdl and "mazePresets" not in sdl
