"""The generator's markers (LongInt, Identifier, Named, FreeForm): defined in
services/markers.py, where the services' own models (a session's events as shown) use them."""

from __future__ import annotations

from services.markers import (
    FREE_FORM,
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
    "IDENTIFIER",
    "LONG",
    "FreeForm",
    "FreeFormInput",
    "Identifier",
    "LongInt",
    "Named",
]
