"""REST renderings of Haze results: exact probabilities as {fraction, float}."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from pydantic import BaseModel

from api.rendering import chance
from services.haze import ActionOdds


def exact(value: Any) -> Any:
    """A service model as JSON, every exact probability as {fraction, float}.

    It walks the model itself: pydantic would dump a Fraction as a bare string.
    """
    if isinstance(value, Fraction):
        return chance(value)
    if isinstance(value, BaseModel):
        return {name: exact(getattr(value, name)) for name in type(value).model_fields}
    if isinstance(value, dict):
        return {k: exact(v) for k, v in value.items()}
    if isinstance(value, list):
        return [exact(v) for v in value]
    return value


def action_odds_dict(odds: ActionOdds) -> dict[str, Any]:
    """JSON of an action's odds: the fumble is its own bucket beside the nine other faces."""
    return {
        "target": odds.target,
        "difficulty": odds.difficulty,
        "arbitrary": odds.arbitrary,
        "success": chance(odds.success),
        "fumble": chance(odds.fumble),
        "fumble_success_rate": odds.fumble_success_rate,
        "fumble_succeeds": odds.fumble_succeeds,
        "failure": chance(odds.failure),
        "success_rate": [{"value": v, **chance(p)} for v, p in odds.success_rate.items()],
    }
