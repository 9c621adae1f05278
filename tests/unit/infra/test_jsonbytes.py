"""infra/jsonbytes.py writes what the standard library's compact JSON writes, for every
value an answer holds, orjson's refusals included."""

import json

import pytest

from infra import jsonbytes


def stdlib(value: object) -> bytes:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


@pytest.mark.parametrize(
    "value",
    [
        {"view": {"phase": "turn", "river": [{"slot": 0, "face_up": False}]}, "version": 3},
        {"odds": {2: "1/36", 12: "1/36"}, "mean": 7.0, "spread": 2.415},  # integer keys
        {"name": "Ysolde l'Épine ✦", "quote": 'a "quoted" \\ line\n', "none": None},
        {"numerator": 6**50, "denominator": 6**60},  # past 64 bits: orjson refuses
        [True, False, -1, 0.1, 1e-12, 12345678901234567890],
    ],
)
def test_the_same_bytes_as_the_standard_library(value: object) -> None:
    assert jsonbytes.dumps(value) == stdlib(value)
