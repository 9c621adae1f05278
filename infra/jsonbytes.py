"""JSON bytes for the answers on the hot paths (a table command's view, a GraphQL result).

orjson writes the same compact JSON as `json.dumps(value, separators=(",", ":"),
ensure_ascii=False)`, several times faster: encoding a flip's answer was about 6% of its
CPU over REST (bench/api.py). Where orjson refuses a value the standard library takes
(an integer past 64 bits, as exact odds' numerators may be), the standard library writes
it, so an answer never fails for the encoder's sake.
"""

from __future__ import annotations

import json

import orjson


def dumps(value: object) -> bytes:
    """`value` as compact UTF-8 JSON (non-string keys written as strings, as json does)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        compact = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return compact.encode()
