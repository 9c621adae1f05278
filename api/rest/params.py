"""Query parameters of the REST endpoints: bounded integers, with one message per mistake."""

from __future__ import annotations

import re

from starlette.requests import Request

from api.problems import InvalidRequest

# An optional minus and ASCII digits (`str.isdigit` also takes "²", which `int` refuses).
_INTEGER = re.compile(r"-?[0-9]+")
# Longer than any bound: out of range without converting it (int() limits its digits).
_MAX_DIGITS = 20


def int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    """The integer query parameter `name` in [low, high], `default` when absent.

    Anything else is 422 `invalid_request`: `int_parsing` when it is not an integer at
    all, `int_range` when it is one outside the bounds.
    """
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not _INTEGER.fullmatch(raw):
        raise InvalidRequest(
            f"query parameter {name!r} must be an integer",
            [{"loc": ["query", name], "msg": "must be an integer", "type": "int_parsing"}],
        )
    if len(raw.lstrip("-")) > _MAX_DIGITS or not low <= int(raw) <= high:
        raise InvalidRequest(
            f"query parameter {name!r} must be an integer in [{low}, {high}]",
            [{"loc": ["query", name], "msg": "out of range", "type": "int_range"}],
        )
    return int(raw)
