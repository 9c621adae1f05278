"""The generator's annotations (`services/markers.py`), for the API's own models."""

from services.markers import (
    FREE_FORM,
    GRAPHQL_NAMES,
    IDENTIFIER,
    LONG,
    FreeForm,
    FreeFormInput,
    Identifier,
    LongInt,
    Named,
)

__all__ = [
    "FREE_FORM",
    "GRAPHQL_NAMES",
    "IDENTIFIER",
    "LONG",
    "FreeForm",
    "FreeFormInput",
    "Identifier",
    "LongInt",
    "Named",
]
