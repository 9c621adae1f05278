"""GraphQL: Die, one die of a roll with its face, value and flags."""

from __future__ import annotations

import strawberry

from api.graphql.scalars import Long
from services.dice import Die as DomainDie


@strawberry.type(description="One throw: its order, the face shown, the value counted, flags.")
class Die:
    order: int
    term: int = strawberry.field(description="Index of the dice term the throw belongs to.")
    die: int = strawberry.field(description="Index of the die within its term (rerolls share).")
    sides: int
    face: int
    value: Long
    active: bool
    flags: list[str]
    label: str | None = strawberry.field(
        default=None, description="The dice term's label (`1d8[fire]`), if it has one."
    )

    @classmethod
    def from_domain(cls, die: DomainDie) -> Die:
        """Copy a rolled die."""
        return cls(
            order=die.order,
            term=die.term,
            die=die.die,
            sides=die.sides,
            face=die.face,
            value=Long(die.value),
            active=die.active,
            flags=list(die.flag_names),
            label=die.label,
        )
