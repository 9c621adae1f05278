"""Request bodies: JSON parsing and validation into the shared request models."""

from __future__ import annotations

import json

import pytest

from api.bodies import parse_model
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
    with pytest.raises(InvalidRequest):
        parse_model(b"[" * 100_000 + b"]" * 100_000, RollRequest)


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
