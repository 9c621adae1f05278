"""An event's stored body: canonical JSON (sorted keys, compact, UTF-8), whatever encodes it."""

from __future__ import annotations

import json

import pytest

from services.store.model import NewEvent, read_json


def test_a_body_is_canonical_json_that_reads_back_as_its_data() -> None:
    data = {"b": [1, {"z": 2, "y": None}], "a": {"label": "6♥", "n": 2**70}, "c": 1.5}
    body = NewEvent("e1", "T", data).body()
    assert body == json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert json.loads(body) == data  # past 64 bits, as the standard library writes it
    assert "6♥" in body


def test_data_that_is_not_json_is_refused() -> None:
    with pytest.raises(TypeError):
        NewEvent("e1", "T", {"x": object()}).body()


@pytest.mark.parametrize(
    "stored",
    [
        b'{"a":{"label":"6\xe2\x99\xa5","n":1180591620717411303424},"b":[1,{"y":null}],"c":1.5}',
        b'{"n":-9223372036854775809}',  # 19 digits, below 64 bits: orjson gives a float
        b'{"n":-9223372036854775808,"m":18446744073709551615,"k":999999999999999999}',
        b'{"digits":"12345678901234567890","x":[0.1,5e-324,-0.0,1E5,1e-400]}',
        b'{"x":NaN}',  # orjson refuses; the standard library reads it
        b'\xef\xbb\xbf{"bom":true}',
        b'{"lone":"\\ud800"}',
        b'{"a":1,"a":2}',
    ],
)
def test_stored_json_reads_as_the_standard_library_reads_it(stored: bytes) -> None:
    got, expected = read_json(stored), json.loads(stored)
    assert json.dumps(got) == json.dumps(expected)  # NaN == NaN here; types too (1 vs 1.0)
    assert [type(v) for v in _leaves(got)] == [type(v) for v in _leaves(expected)]


def _leaves(value: object) -> list[object]:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


@pytest.mark.parametrize("stored", [b'{"a":', b"\xff\xfe{}", b'{"a":01}', b""])
def test_stored_json_that_does_not_read_fails_as_the_standard_library_fails(stored: bytes) -> None:
    with pytest.raises(ValueError) as expected:
        json.loads(stored)
    with pytest.raises(type(expected.value)) as got:
        read_json(stored)
    assert str(got.value) == str(expected.value)
