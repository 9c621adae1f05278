"""GraphQL: MazeRatsSigil, a generated sigil and the table rolls behind it."""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from services.mazerats.magic import Sigil


@strawberry.type(description="A generated sigil: name, realm, first table and the d66 rolls.")
class MazeRatsSigil:
    name: str
    realm: str
    part: str
    rolls: JSON

    @classmethod
    def from_domain(cls, sigil: Sigil) -> MazeRatsSigil:
        """Wrap a generated sigil."""
        return cls(
            name=sigil.name,
            realm=sigil.realm.value,
            part=sigil.part.value,
            rolls=JSON([r.model_dump(mode="json") for r in sigil.rolls]),
        )
