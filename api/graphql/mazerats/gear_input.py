"""GraphQL: MazeRatsGearInput, the target's armor and shield (its AC replaces `ac`)."""

from __future__ import annotations

from typing import Any

import strawberry


@strawberry.input(description="What the target wears: armor 'none', 'light' or 'heavy'; shield.")
class MazeRatsGearInput:
    armor: str = "none"
    shield: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The DefenderGear fields."""
        return {"armor": self.armor, "shield": self.shield}
