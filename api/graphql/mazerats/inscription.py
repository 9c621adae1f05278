"""GraphQL: MazeRatsInscription, the sigils kept and those overwritten."""

from __future__ import annotations

import strawberry

from services.mazerats.sigils import Inscription


@strawberry.type(description="Sigils borne after inscribing: kept, and lost to overwriting.")
class MazeRatsInscription:
    slots: int
    kept: list[str]
    lost: list[str]

    @classmethod
    def from_domain(cls, inscription: Inscription, slots: int) -> MazeRatsInscription:
        """Wrap an inscription."""
        return cls(slots=slots, kept=list(inscription.kept), lost=list(inscription.lost))
