"""Loot checks: the class of loot (Common → Legendary) from the total, by the chart."""

from __future__ import annotations

from fractions import Fraction

from services.dice import Rng
from services.maze.checks import CheckSpec, Throw, roll_die
from services.maze.exploding import p_at_least
from services.maze.model import MazeModel
from services.maze.rules import DEFAULT_LOOT_CHART, LootClass, loot_class


class LootOutcome(MazeModel):
    """A loot roll: its total and the class of loot it gives."""

    dice: tuple[Throw, ...]
    total: int
    loot_class: str


def resolve_loot(
    spec: CheckSpec, rng: Rng, chart: tuple[LootClass, ...] = DEFAULT_LOOT_CHART
) -> LootOutcome:
    """Roll a loot check (luck is already in the modifier; no tokens) and read the chart."""
    total, dice = roll_die(spec, rng)
    return LootOutcome(dice=dice, total=total, loot_class=loot_class(chart, total))


def loot_odds(
    spec: CheckSpec, chart: tuple[LootClass, ...] = DEFAULT_LOOT_CHART
) -> dict[str, Fraction]:
    """P(each class of loot), exactly."""
    rows = sorted(chart, key=lambda r: r.min_total)
    out: dict[str, Fraction] = {}
    for i, row in enumerate(rows):
        low = Fraction(1) if i == 0 else p_at_least(spec.die, row.min_total - spec.modifier)
        high = (
            p_at_least(spec.die, rows[i + 1].min_total - spec.modifier)
            if i + 1 < len(rows)
            else Fraction(0)
        )
        out[row.name] = out.get(row.name, Fraction()) + low - high
    return out
