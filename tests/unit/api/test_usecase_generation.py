"""GraphQL types generated from pydantic models, and the use-case rows they serve."""

from __future__ import annotations

import enum
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, ValidationError

from api.graphql.generate import (
    FREE_FORM_FIELDS,
    convert,
    input_type,
    output_type,
    plain,
    without_nulls,
)
from api.graphql.problem import Problem
from api.graphql.scalars import Long
from api.graphql.schema import schema
from api.models import FairRollRequest, RollRequest
from api.usecases.markers import GRAPHQL_NAMES, FreeForm, LongInt, Named
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


def test_an_enum_class_becomes_an_enum_named_as_itself_and_tuples_lists() -> None:
    class Grade(enum.StrEnum):
        LOW = "score_+1"
        HIGH = "score_+2"

    made = convert(Grade, [], "T.grade", is_input=True)
    assert made.__name__ == "Grade"
    assert [m.name for m in made] == ["SCORE__1", "SCORE__2"]
    assert plain(made("score_+2")) == "score_+2"
    renamed = convert(Annotated[Grade, Named("OtherGrade")], [], "T.g", is_input=False)
    assert renamed.__name__ == "OtherGrade"
    assert convert(tuple[int, ...], [], "T.dice", is_input=False) == list[int]
    with pytest.raises(TypeError, match="same GraphQL name"):
        convert(Literal["a+", "a-"], [], "T.clash", is_input=False)


def test_an_area_names_its_services_classes_in_graphql() -> None:
    class Sheet(BaseModel):
        hp: int

    class Kind(enum.StrEnum):
        A = "a"

    GRAPHQL_NAMES.update({Sheet: "AreaSheet", Kind: "AreaKind"})
    assert output_type(Sheet).__name__ == "AreaSheet"
    assert input_type(Sheet).__name__ == "AreaSheetInput"
    assert convert(Kind, [], "T.kind", is_input=True).__name__ == "AreaKind"
    GRAPHQL_NAMES[Literal["x", "y"]] = "AreaXY"
    assert convert(Literal["x", "y"], [], "T.xy", is_input=True).__name__ == "AreaXY"


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
