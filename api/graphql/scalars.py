"""GraphQL scalars: Long, for values beyond GraphQL's 32-bit Int (totals, nonces)."""

from __future__ import annotations

from typing import Any, NewType

import strawberry

_LIMIT = 2**63

Long = NewType("Long", int)
"""A signed 64-bit integer; registered on the schema through `SCALARS`."""


def _parse_long(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError("Long must be an integer")
    number = int(value)
    if not -_LIMIT <= number < _LIMIT:
        raise ValueError("Long must fit in 64 bits")
    return number


SCALARS: dict[object, Any] = {
    Long: strawberry.scalar(
        name="Long",
        serialize=int,
        parse_value=_parse_long,
        description="A signed 64-bit integer, sent as a JSON number (or a decimal string).",
    )
}
