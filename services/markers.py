"""Annotations a model may carry for the GraphQL generator (JSON Schema ignores them),
and the base of the models of what a viewer is shown (services/*/shown.py).

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

from pydantic import BaseModel, ConfigDict, Field


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


class Shown(BaseModel):
    """Base of what a viewer is shown (a session's or campaign's view and events): the
    redaction builds the JSON, a model names every key it may carry (extra keys are an
    error, so a field the redaction adds must be declared here first)."""

    model_config = ConfigDict(frozen=True, extra="forbid")


def type_const(schema: dict[str, Any], model: type[BaseModel]) -> None:
    """JSON Schema of an event as shown: its `type` is the model's name (a constant), so
    a list of events is a `oneOf` whose members exclude each other."""
    properties = schema.get("properties", {})
    if "type" in properties and "graphql_interface" not in model.__dict__:
        properties["type"] = {**properties["type"], "const": model.__name__}


def event_type(value: Any) -> str | None:
    """The `type` of an event as shown, a dict or a model (a union's discriminator)."""
    found = value.get("type") if isinstance(value, dict) else getattr(value, "type", None)
    return found if isinstance(found, str) else None
