"""The base of every Maze pydantic model: frozen, no unknown fields."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class MazeModel(BaseModel):
    """Frozen and strict about unknown fields, so a typo in a content pack is refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)
