"""JSON renderings of exact probabilities and of results for the API."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from services.mazerats.combat import AttackOdds
from services.mazerats.opposed import OpposedOdds


def chance(p: Fraction) -> dict[str, Any]:
    """An exact probability as its fraction and as a float."""
    return {"fraction": f"{p.numerator}/{p.denominator}", "probability": float(p)}


def attack_odds_dict(odds: AttackOdds) -> dict[str, Any]:
    """The chance to hit and the damage distribution, exact."""
    return {
        "hit": chance(odds.hit),
        "mean_damage": {
            "fraction": f"{odds.mean_damage.numerator}/{odds.mean_damage.denominator}",
            "value": float(odds.mean_damage),
        },
        "damage": [{"damage": d, **chance(p)} for d, p in odds.damage.items()],
    }


def opposed_odds_dict(odds: OpposedOdds) -> dict[str, Any]:
    """Each side's chance to win and the chance of a tie on one exchange."""
    return {
        "attacker": chance(odds.attacker),
        "defender": chance(odds.defender),
        "tie": chance(odds.tie),
    }
