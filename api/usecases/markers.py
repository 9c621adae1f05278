"""The generator's annotations (`services/markers.py`), for the API's own models."""

from services.markers import FREE_FORM, LONG, FreeForm, FreeFormInput, LongInt, Named

__all__ = ["FREE_FORM", "LONG", "FreeForm", "FreeFormInput", "LongInt", "Named"]
