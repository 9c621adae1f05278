"""Group checks: each member rolls for themself; the group meets a collective DC."""

from __future__ import annotations

from collections.abc import Sequence

from services.dice import Rng
from services.maze.bands import BandName, band_for, tokens_awarded
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
    tokens_awarded: tuple[int, ...]


def resolve_group(
    members: Sequence[CheckSpec], dc: int, rng: Rng, rules: MazeRules = DEFAULT_RULES
) -> GroupOutcome:
    """Roll every member (no tokens); "sum": the scores add up against the DC;
    "majority": at least half of the members reach the DC on their own.

    "If you fail a roll, you will be granted adversity token(s)": in `sum` mode the roll
    that fails is the group's, so every member gets the tokens of the group's band; in
    `majority` mode each member rolled "as though they are performing the check for
    themself", so each gets the tokens of their own band against the DC.
    """
    rolls = [roll_die(m, rng) for m in members]
    scores = tuple(s for s, _ in rolls)
    total = sum(scores)
    if rules.group_mode == "sum":
        band = band_for(total - dc).name
        success = total >= dc
        awarded = tuple(tokens_awarded(band) for _ in scores)
    else:
        band = None
        success = 2 * sum(s >= dc for s in scores) >= len(scores)
        awarded = tuple(tokens_awarded(band_for(s - dc).name) for s in scores)
    return GroupOutcome(
        mode=rules.group_mode,
        scores=scores,
        dice=tuple(d for _, d in rolls),
        total=total,
        dc=dc,
        success=success,
        band=band,
        tokens_awarded=awarded,
    )
