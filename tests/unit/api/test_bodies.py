"""Request bodies: JSON parsing and validation into the shared request models."""

from __future__ import annotations

import json
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field, field_validator, model_validator

from api.bodies import MAX_JSON_DEPTH, TOO_DEEP, parse_model
from api.models import CommitmentRequest, FairRollRequest, RollRequest
from api.problems import InvalidRequest


def test_a_valid_body_becomes_its_model() -> None:
    body = parse_model(b'{"expression": "1d6", "render": ["foundry"]}', RollRequest)
    assert body == RollRequest(expression="1d6", seed=None, render=["foundry"])


def test_an_empty_body_takes_the_defaults() -> None:
    assert parse_model(b"", CommitmentRequest).ttl_seconds == 3600


@pytest.mark.parametrize(
    "raw",
    [
        b"{oops",
        b"null",
        b"[]",
        b'{"expression": "1d6", "extra": 1}',
        b'{"expression": ""}',
        b'{"expression": "1d6", "seed": 5}',
    ],
)
def test_a_bad_body_is_an_invalid_request_listing_the_errors(raw: bytes) -> None:
    with pytest.raises(InvalidRequest) as caught:
        parse_model(raw, RollRequest)
    assert caught.value.errors
    for error in caught.value.errors:
        assert set(error) == {"loc", "msg", "type"}


def test_a_deeply_nested_body_is_refused_not_crashed() -> None:
    with pytest.raises(InvalidRequest) as caught:
        parse_model(b"[" * 100_000 + b"]" * 100_000, RollRequest)
    assert caught.value.errors == [{"loc": ["body"], "msg": TOO_DEEP, "type": "json_invalid"}]


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 300, 900])
def test_a_body_nested_past_the_limit_says_so_at_any_depth(depth: int) -> None:
    """The same answer as a GraphQL body's, not a parser's recursion message."""
    raw = '{"expression": "1d6", "seed": ' + "[" * depth + "]" * depth + "}"
    with pytest.raises(InvalidRequest) as caught:
        parse_model(raw.encode(), RollRequest)
    assert caught.value.errors == [{"loc": ["body"], "msg": TOO_DEEP, "type": "json_invalid"}]


def test_a_body_nested_to_the_limit_is_read() -> None:
    shallow = "[" * (MAX_JSON_DEPTH - 1) + "]" * (MAX_JSON_DEPTH - 1)
    with pytest.raises(InvalidRequest) as caught:  # read, then refused for its type
        parse_model(f'{{"expression": "1d6", "seed": {shallow}}}'.encode(), RollRequest)
    assert caught.value.errors[0]["type"] != "json_invalid", caught.value.errors


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(constant: str) -> None:
    """Python's json module and pydantic's reader both take them as numbers."""
    with pytest.raises(InvalidRequest) as caught:
        parse_model(f'{{"ttl_seconds": {constant}}}'.encode(), CommitmentRequest)
    (error,) = caught.value.errors
    assert error["type"] == "json_invalid" and constant.lstrip("-") in error["msg"], error


def test_nan_and_infinity_inside_strings_are_text() -> None:
    body = parse_model(b'{"expression": "1d6", "seed": "NaN-Infinity"}', RollRequest)
    assert body.seed == "NaN-Infinity"


@pytest.mark.parametrize(
    ("nonce", "ok"), [(0, True), (2**63 - 1, True), (-1, False), (True, False)]
)
def test_the_nonce_is_a_non_negative_integer(nonce: object, ok: bool) -> None:
    raw = {"commitment_id": "c", "client_seed": "s", "nonce": nonce, "expression": "1d6"}
    if ok:
        assert parse_model(json.dumps(raw), FairRollRequest).nonce == nonce
    else:
        with pytest.raises(InvalidRequest):
            parse_model(json.dumps(raw), FairRollRequest)


class EitherBody(BaseModel):
    die: int | None = None
    character: str | None = None

    @model_validator(mode="after")
    def _one(self) -> EitherBody:
        if (self.die is None) == (self.character is None):
            raise ValueError("give either die or character")
        return self


class NamedProfile(BaseModel):
    system: Literal["named"]


class StatsProfile(BaseModel):
    stats: dict[str, str]

    @field_validator("stats")
    @classmethod
    def _all(cls, value: dict[str, str]) -> dict[str, str]:
        if "STR" not in value:
            raise ValueError("missing stats: STR")
        return value


class MemberBody(BaseModel):
    profile: Annotated[NamedProfile, Field(discriminator="system")] | StatsProfile
    rolls: list[EitherBody] = Field(default_factory=list, min_length=1)


def _code(model: type[BaseModel], raw: str) -> str:
    with pytest.raises(InvalidRequest) as refused:
        parse_model(raw, model)
    return refused.value.code


@pytest.mark.parametrize(
    ("model", "raw", "code"),
    [
        # Matches the schema, breaks a constraint stated in words.
        (EitherBody, "{}", "constraint_violation"),
        (EitherBody, '{"die": 4, "character": "x"}', "constraint_violation"),
        # Does not match the schema: a wrong type, with or without a broken constraint.
        (EitherBody, '{"die": "4"}', "invalid_request"),
        (EitherBody, '{"die": 4.5}', "invalid_request"),
        # A union: the value has one member's shape and breaks only its constraint ...
        (MemberBody, '{"profile": {"stats": {}}, "rolls": [{"die": 4}]}', "constraint_violation"),
        # ... or fits no member's shape.
        (MemberBody, '{"profile": {"stats": 3}, "rolls": [{"die": 4}]}', "invalid_request"),
        # A list whose every item broke a constraint is not also "too short".
        (MemberBody, '{"profile": {"system": "named"}, "rolls": [{}]}', "constraint_violation"),
        (MemberBody, '{"profile": {"system": "named"}, "rolls": []}', "invalid_request"),
    ],
)
def test_a_refusal_says_whether_the_schema_or_a_stated_constraint_refused(
    model: type[BaseModel], raw: str, code: str
) -> None:
    assert _code(model, raw) == code


def test_an_integral_number_is_an_integer_and_a_fraction_is_not() -> None:
    assert parse_model('{"die": 4.0}', EitherBody).die == 4
    assert parse_model('{"die": 4e0, "character": null}', EitherBody).die == 4
    with pytest.raises(InvalidRequest):
        parse_model('{"die": true}', EitherBody)
