"""The generator's markers (LongInt, Identifier, Named, FreeForm, GRAPHQL_NAMES): defined
in services/markers.py, where the services' own models use them too."""

from __future__ import annotations

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
