"""Worker-side metrics (placeholder until the observability work fills it in)."""

from __future__ import annotations


def observe_tick_lag(seconds: float) -> None:
    """Record how late a campaign tick was applied, in seconds after it fell due."""
    del seconds
