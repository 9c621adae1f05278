"""Scheduling in terms of the state: which downtime is due by when.

A cadence counts schedule points after its anchor; each point passes `downtimes_per_tick`
downtimes, counted from `base` (the downtime counter when the cadence was set).
"""

from __future__ import annotations

from services.campaign.cadence import ManualCadence, point_at, points_between
from services.campaign.state import CampaignState


def _per_tick(state: CampaignState) -> int:
    cadence = state.cadence
    return 1 if isinstance(cadence, ManualCadence) else cadence.downtimes_per_tick


def target_downtime(state: CampaignState, now: float) -> int:
    """The counter the campaign should have reached by `now` (never below where it is)."""
    if not state.created or state.ended or isinstance(state.cadence, ManualCadence):
        return state.downtime
    points = points_between(state.cadence, state.anchor, now)
    due = min(state.rules.season_downtimes, state.base + points * _per_tick(state))
    return max(state.downtime, due)


def due_at(state: CampaignState, index: int) -> float | None:
    """When downtime `index` became (or becomes) due; None for manual or before the base."""
    if isinstance(state.cadence, ManualCadence) or index < state.base:
        return None
    return point_at(state.cadence, state.anchor, (index - state.base) // _per_tick(state) + 1)


def next_due_at(state: CampaignState) -> float | None:
    """When the next downtime falls due; None when none will (manual, ended, season over)."""
    if not state.created or state.ended or state.season_over:
        return None
    return due_at(state, state.downtime)
