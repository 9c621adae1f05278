"""GraphQL types generated from pydantic models, and the use-case rows they serve."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, ValidationError
from strawberry.types.unset import UNSET

from api.graphql.chance import Chance
from api.graphql.generate import FREE_FORM_FIELDS, convert, plain, without_nulls
from api.graphql.problem import Problem
from api.graphql.scalars import Long
from api.graphql.schema import schema
from api.models import FairRollRequest, RollRequest
from api.usecases.markers import FreeForm, LongInt, Named
from api.usecases.rows import ROWS
from services.chance import Chance as ChanceModel


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


def test_the_chance_model_is_the_schema_s_one_chance_type() -> None:
    assert convert(ChanceModel, [], "T.odds", is_input=False) is Chance
    assert ChanceModel.of(Fraction(2, 4)) == ChanceModel(fraction="1/2", float=0.5)


def test_a_nested_input_field_with_a_default_may_be_left_out() -> None:
    class Inner(BaseModel):
        needed: int
        count: int = 2
        mode: Annotated[Literal["a", "b"], Named("InnerMode")] = "a"
        tags: list[str] = []

    class Outer(BaseModel):
        inner: Inner

    fields = {
        f.name: f for f in convert(Inner, [], "Outer.inner", True).__strawberry_definition__.fields
    }
    assert fields["needed"].default is dataclasses.MISSING  # required
    assert fields["count"].default == 2  # shown in the schema
    assert fields["mode"].default is UNSET and fields["tags"].default is UNSET
    given = plain(convert(Inner, [], "Outer.inner", True)(needed=1))
    assert Outer.model_validate({"inner": given}).inner == Inner(needed=1)
