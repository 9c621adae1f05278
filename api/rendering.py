"""REST renderings shared by the rules endpoints (presentation stays out of services/)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any


def chance(p: Fraction) -> dict[str, Any]:
    """An exact probability as JSON: {"fraction": "n/d", "float": x} (as the dice API)."""
    return {"fraction": f"{p.numerator}/{p.denominator}", "float": float(p)}
