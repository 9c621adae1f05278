"""Plain JSON values from events, state parts and definitions (GM outputs)."""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from pydantic import BaseModel

from services.labyrinth.records import RollRecord

# Leaves returned as they are, by exact type (a str- or int-valued Enum is not one of them).
_PLAIN = frozenset({str, int, float, bool, type(None)})
# The field names of each dataclass type met so far (a GM view walks hundreds of cards:
# looked up once per type, not per value).
_FIELDS: dict[type, tuple[str, ...]] = {}


def jsonable(value: Any) -> Any:
    """Dataclasses, pydantic models, enums and collections as JSON-ready values."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    names = _FIELDS.get(kind)
    if names is not None:
        return {name: jsonable(getattr(value, name)) for name in names}
    if isinstance(value, RollRecord):
        return value.to_json()
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(value))
        return {name: jsonable(getattr(value, name)) for name in names}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {str(jsonable(k)): jsonable(v) for k, v in value.items()}
    if isinstance(value, (frozenset, set)):
        return sorted(jsonable(v) for v in value)
    if isinstance(value, (tuple, list)):
        return [jsonable(v) for v in value]
    return value
