"""GraphQL: RollResult, a roll with every die and its three renderings."""

from __future__ import annotations

from typing import Any

import strawberry
from strawberry.scalars import JSON

from api.graphql.check import Check
from api.graphql.die import Die
from api.graphql.scalars import Long
from services.dice import RollResult as DomainRoll
from services.dice import render_dice_so_nice, render_foundry


@strawberry.type(name="RollResult", description="A roll: total, check, every die, renderings.")
class Roll:
    expression: str
    total: Long
    seed: str | None
    check: Check | None
    dice: list[Die]
    domain: strawberry.Private[DomainRoll]
    canonical_dict: strawberry.Private[dict[str, Any]]

    @classmethod
    def from_domain(cls, result: DomainRoll, seed: str | None = None) -> Roll:
        """Wrap a rolled result; `seed` is the one the API chose when the caller gave none."""
        canonical = result.to_dict()
        if seed is not None:
            canonical.setdefault("seed", seed)
        return cls(
            expression=str(canonical.get("expression", "")),
            total=Long(result.total),
            seed=canonical.get("seed"),
            check=Check.from_domain(result.check) if result.check is not None else None,
            dice=[Die.from_domain(d) for d in result.dice],
            domain=result,
            canonical_dict=canonical,
        )

    @strawberry.field(description="The canonical JSON of the roll, as REST returns it.")
    def canonical(self) -> JSON:
        return JSON(self.canonical_dict)

    @strawberry.field(description="Foundry VTT `Roll.toJSON()` shape, for `Roll.fromData`.")
    def foundry(self) -> JSON:
        return JSON(render_foundry(self.domain))

    @strawberry.field(description="Dice So Nice `throws`.")
    def dice_so_nice(self) -> JSON:
        return JSON(render_dice_so_nice(self.domain))
