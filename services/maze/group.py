"""Group checks: each member rolls for themself; the group meets a collective DC."""

from __future__ import annotations

from collections.abc import Sequence

from services.dice import Rng
from services.maze.bands import BandName, band_for
from services.maze.checks import CheckSpec, Throw, roll_die
from services.maze.model import MazeModel
from services.maze.rules import DEFAULT_RULES, MazeRules


class GroupOutcome(MazeModel):
    """Each member's score and the group's result under the table's group mode."""

    mode: str
    scores: tuple[int, ...]
    dice: tuple[tuple[Throw, ...], ...]
    total: int
    dc: int
    success: bool
    band: BandName | None


def resolve_group(
    members: Sequence[CheckSpec], dc: int, rng: Rng, rules: MazeRules = DEFAULT_RULES
) -> GroupOutcome:
    """Roll every member (no tokens); "sum": the scores add up against the DC;
    "majority": at least half of the members reach the DC on their own."""
    rolls = [roll_die(m, rng) for m in members]
    scores = tuple(s for s, _ in rolls)
    total = sum(scores)
    if rules.group_mode == "sum":
        band = band_for(total - dc).name
        success = total >= dc
    else:
        band = None
        success = 2 * sum(s >= dc for s in scores) >= len(scores)
    return GroupOutcome(
        mode=rules.group_mode,
        scores=scores,
        dice=tuple(d for _, d in rolls),
        total=total,
        dc=dc,
        success=success,
        band=band,
    )
