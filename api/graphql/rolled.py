"""GraphQL: `diceRolls`, the dice behind a rules result, on every result that rolls.

A result type inherits `Rolled`; its resolver attaches the rolls it recorded
(`api.rolls.recorded`) with `with_rolls`. Clients that draw dice select
`diceRolls(render: [FOUNDRY]) { dice { sides face } foundry }`; others pay nothing.
"""

from typing import Any, TypeVar

import strawberry

from api.graphql.generate import convert, output_type
from api.models import Rendering
from api.rolls import Rolls, rendered
from api.usecases import dice_results

DiceRoll: Any = output_type(dice_results.RollResult)
RenderingArg: Any = convert(Rendering, [], "Rolled.render", True)

R = TypeVar("R", bound="Rolled")


@strawberry.type
class Rolled:
    """Mixin of result types whose rules rolled dice."""

    recorded: strawberry.Private[Rolls] = ()

    @strawberry.field(
        description=(
            "Every roll the rules made, in order, each like `roll`'s answer (every die, "
            "its tree), plus the renderings named in `render` (Foundry VTT roll data, "
            "Dice So Nice data)."
        )
    )
    def dice_rolls(self, render: list[RenderingArg] | None = None) -> list[DiceRoll]:
        names = [r.value if hasattr(r, "value") else r for r in render or ()]
        return rendered(self.recorded, names)


def with_rolls(result: R, rolls: Rolls) -> R:
    """`result`, answering `diceRolls` from these recorded rolls."""
    result.recorded = rolls
    return result
