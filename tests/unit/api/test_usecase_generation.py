"""GraphQL types generated from pydantic models, and the use-case rows they serve."""

from __future__ import annotations

import dataclasses
import enum
import typing
from fractions import Fraction
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
    output_type,
    plain,
    without_nulls,
)
from api.graphql.problem import Problem
from api.graphql.scalars import Long
from api.graphql.schema import schema
from api.models import FairRollRequest, RollRequest
from api.openapi import build
from api.openapi.usecases import params
from api.rest.usecases import route as rest_route
from api.usecases.markers import FREE_FORM, GRAPHQL_NAMES, FreeForm, LongInt, Named
from api.usecases.rows import ROWS
from api.usecases.simulations import Policy, SimulationRequest
from services.chance import Chance as ChanceModel
from services.labyrinth.profiles import CheckProfile, Stat
from services.sim.policies import POLICIES


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
    problem = Problem.from_validation(caught.value)
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


def test_a_dict_keyed_by_an_enum_is_an_input_with_a_field_per_member() -> None:
    stats = convert(dict[Stat, str], [], "CheckProfileInput.stats", is_input=True)
    assert [f.name for f in stats.__strawberry_definition__.fields] == [s.value for s in Stat]
    given = plain(stats(STR="1d20+2", DEX="1d20", INT="1d20", WIS="1d20", CHA="2d6"))
    profile = CheckProfile.model_validate({"stats": given})
    assert profile.stats[Stat.STR] == "1d20+2" and profile.stats[Stat.CHA] == "2d6"
    with pytest.raises(TypeError, match="inputs only"):
        convert(dict[Stat, str], [], "Shown.stats", is_input=False)


def test_a_null_argument_is_null_where_the_field_takes_null() -> None:
    # `chart: null` is "no chart sweep", not the default sweep.
    given = without_nulls(SimulationRequest, {"chart": None, "party": None})
    assert SimulationRequest.model_validate(given).chart is None
    assert "party" in given  # party's own default is null


def test_an_input_field_with_a_default_is_optional_and_shows_it() -> None:
    sdl = str(schema)
    assert "games: Int! = 2000" in sdl  # ChartRequestInput
    assert "profile: CheckProfileInput\n" in sdl  # a model default: optional, absent


def test_the_policy_enum_is_the_registered_policies() -> None:
    assert set(typing.get_args(typing.get_args(Policy)[0])) == set(POLICIES)


def test_path_parameters_are_fields_of_the_request_and_in_the_contract() -> None:
    rows = {row.name: row for row in ROWS}
    assert rows["getSimulation"].path_params == ("id",)
    (param,) = params(rows["getSimulation"])
    assert (param["name"], param["in"], param["required"]) == ("id", "path", True)
    assert param["schema"]["maxLength"] == 64


def test_the_chance_model_is_the_schema_s_one_chance_type() -> None:
    assert convert(ChanceModel, [], "T.odds", is_input=False) is output_type(ChanceModel)
    assert ChanceModel.of(Fraction(2, 4)) == ChanceModel(fraction="1/2", float=0.5)
    sdl = str(schema)
    assert "type Chance {" in sdl and "MazeChance" not in sdl and "MazeRatsChance" not in sdl


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
    assert fields["mode"].default.value == "a"  # an enum's default, shown as its member
    assert fields["tags"].default is UNSET
    given = plain(convert(Inner, [], "Outer.inner", True)(needed=1))
    assert Outer.model_validate({"inner": given}).inner == Inner(needed=1)


def test_a_post_row_with_a_path_parameter_and_no_body_model_is_refused() -> None:
    start = next(row for row in ROWS if row.name == "startSimulation")
    with pytest.raises(TypeError, match="path parameters names its body"):
        rest_route(dataclasses.replace(start, path="/simulations/{id}"))


def test_graphql_only_rows_have_no_route_and_no_rest_operation() -> None:
    only = [row for row in ROWS if row.method is None]
    assert {row.field for row in only} >= {"override_member", "override_trap"}
    with pytest.raises(TypeError, match="GraphQL-only"):
        rest_route(only[0])
    paths = build()["paths"]
    ids = {op["operationId"] for ops in paths.values() for op in ops.values()}
    assert not ids & {row.name for row in only}
    assert "sendCommand" in ids  # the same commands, over REST, as one operation


def test_a_table_row_names_its_table_in_the_path_and_takes_its_token() -> None:
    row = next(row for row in ROWS if row.name == "endCampaignRun")
    assert row.table is not None and row.path_params == ("run",)  # not the table's own id
    operation = build()["paths"]["/v1" + row.path]["post"]
    assert [p["name"] for p in operation["parameters"]] == ["campaign_id", "run"]
    assert operation["security"] == [{"ApiKey": [], "SessionToken": []}]
    body = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    assert body.endswith("/EndRun")  # the body model: the path's `run` is not in it
