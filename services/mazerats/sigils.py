"""Bearing sigils: as many as the sigil slots; excess sigils are overwritten and lost."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class Overwrite(StrEnum):
    """Which sigils are lost when there are more than slots (the text does not say)."""

    OLDEST = "oldest"
    NEWEST = "newest"


class Inscription(BaseModel):
    """The sigils kept and those overwritten."""

    model_config = ConfigDict(frozen=True)

    kept: tuple[str, ...]
    lost: tuple[str, ...]


def inscribe(
    borne: Sequence[str],
    new: Sequence[str],
    slots: int,
    overwrite: Overwrite = Overwrite.OLDEST,
) -> Inscription:
    """Add sigils in order (oldest first); those past the slots are overwritten and lost."""
    every = [*borne, *new]
    excess = max(0, len(every) - max(slots, 0))
    if overwrite is Overwrite.OLDEST:
        return Inscription(kept=tuple(every[excess:]), lost=tuple(every[:excess]))
    keep = len(every) - excess
    return Inscription(kept=tuple(every[:keep]), lost=tuple(every[keep:]))
