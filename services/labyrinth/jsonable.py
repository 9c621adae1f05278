"""Plain JSON values from events, state parts and definitions (GM outputs)."""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from pydantic import BaseModel

from services.labyrinth.records import RollRecord


def jsonable(value: Any) -> Any:
    """Dataclasses, pydantic models, enums and collections as JSON-ready values."""
    if isinstance(value, RollRecord):
        return value.to_json()
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {str(jsonable(k)): jsonable(v) for k, v in value.items()}
    if isinstance(value, (frozenset, set)):
        return sorted(jsonable(v) for v in value)
    if isinstance(value, (tuple, list)):
        return [jsonable(v) for v in value]
    return value
