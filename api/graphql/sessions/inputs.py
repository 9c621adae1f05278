"""GraphQL: PartyMemberInput, a member of a new session's party."""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.scalars import JSON


@strawberry.input(
    description="A party member; `profile` is a CheckProfile, {system: 5e|the_maze|maze_rats, "
    "...} or one of those names."
)
class PartyMemberInput:
    id: str
    name: str
    profile: JSON | None = None

    def to_dict(self) -> dict[str, Any]:
        """As the REST body's member."""
        out: dict[str, Any] = {"id": self.id, "name": self.name}
        if self.profile is not None:
            out["profile"] = self.profile
        return out
