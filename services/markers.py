"""Annotations a model may carry for the GraphQL generator (JSON Schema ignores them).

Pure metadata, so the services' own request and result models may carry them too
(`api/usecases/markers.py` re-exports them for the API).

* `LongInt`: an int that may pass 32 bits (totals, nonces) is the `Long` scalar;
  every other int is GraphQL's `Int`.
* `Identifier`: a resource's id (a job's) is GraphQL's `ID`.
* `Named("X")` on a `Literal[...]`: the GraphQL enum's name (else Model + Field).
* `GRAPHQL_NAMES`: the GraphQL name an area gives a services class (an Enum, a nested
  request model) whose own name another area's class may share (`Action`, `Character`).
* `FreeForm` / `FreeFormInput`: a genuinely free-form document (Foundry's roll data, a
  labyrinth definition to check) is the `JSON` scalar. Every such field is recorded, so
  the contract test can tell the documented exceptions from an untyped leak.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field


@dataclass(frozen=True, slots=True)
class Named:
    """The GraphQL name of the enum a `Literal` annotation becomes."""

    name: str


@dataclass(frozen=True, slots=True)
class _Long:
    pass


@dataclass(frozen=True, slots=True)
class _FreeForm:
    pass


@dataclass(frozen=True, slots=True)
class _Identifier:
    pass


# Filled by the area modules under api/usecases before the schema is generated (a
# services `Literal` alias may be named here too).
GRAPHQL_NAMES: dict[Any, str] = {}

LONG = _Long()
IDENTIFIER = _Identifier()
FREE_FORM = _FreeForm()

LongInt = Annotated[int, LONG]
Identifier = Annotated[str, IDENTIFIER, Field(min_length=1, max_length=64)]
FreeForm = Annotated[dict[str, Any], FREE_FORM, Field(json_schema_extra={"x-free-form": True})]
FreeFormInput = Annotated[Any, FREE_FORM]
