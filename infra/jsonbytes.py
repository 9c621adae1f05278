"""JSON bytes on the hot paths: the answers written (a table command's view, a GraphQL
result) and the documents read (stored events and snapshots, GraphQL request bodies).

orjson writes the same compact JSON as `json.dumps(value, separators=(",", ":"),
ensure_ascii=False)`, several times faster: encoding a flip's answer was about 6% of its
CPU over REST (bench/api.py). Where orjson refuses a value the standard library takes
(an integer past 64 bits, as exact odds' numerators may be), the standard library writes
it, so an answer never fails for the encoder's sake. `loads` reads as `json.loads` does,
with the same values and the same errors.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

# Where an integer past 64 bits can be: 18 digits always fit (10**18 < 2**63), 19 may not
# (-9223372036854775809). Found as a run of 19 zeros once every digit is a zero and every
# other byte a space: a regular expression took ten times as long.
_DIGITS_AS_ZEROS = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_LONG_RUN = b"0" * 19


def dumps(value: object) -> bytes:
    """`value` as compact UTF-8 JSON (non-string keys written as strings, as json does)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        compact = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return compact.encode()


def loads(data: bytes) -> Any:
    """`json.loads(data)`: the same value, or the same error, several times faster (stored
    event data and snapshot states, GraphQL request bodies).

    orjson reads an integer past 64 bits as a float, its digits lost, instead of refusing
    it: a document with a run of 19 digits or more is read by the standard library, as is
    one orjson refuses (NaN, a byte order mark, a lone surrogate, another encoding than
    UTF-8, nesting past orjson's limit)."""
    if _LONG_RUN not in data.translate(_DIGITS_AS_ZEROS):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass
    return json.loads(data)
