"""The dice a rules call threw, shown the way `/v1/dice/roll` shows its own.

The rules services roll with the dice engine and answer their own outcome (a band, a
hit, an injury). To put the same dice on a VTT's table, the API records the engine's
rolls around the call (`services.dice.recording`) and renders each of them on request:
per die, as Foundry VTT roll data, as Dice So Nice data.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, Field, create_model

from api.models import Rendering
from api.usecases import dice_results
from api.usecases.dice import roll_result
from api.usecases.table import Call
from services.dice import RollResult, new_seed, recording

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)
Rolls = tuple[RollResult, ...]


# What a rules call that rolls says of `render`, in its row's description.
RENDER_NOTE = (
    " With `render` (`[]`, or renderings such as `foundry`), `dice_rolls` lists every roll "
    "the rules made, each with its dice, like `/v1/dice/roll`."
)


class Rendered(BaseModel):
    """The `render` field of a REST body that rolls dice under a rules system (a mixin:
    the body keeps its rules model's own configuration)."""

    render: list[Rendering] | None = Field(
        default=None,
        max_length=2,
        description=(
            "Answer `dice_rolls`, every roll the rules made, each with its dice like "
            "`/v1/dice/roll`, plus each rendering named here (`foundry`, "
            "`dice_so_nice`); `[]` asks for the dice alone. Absent: no `dice_rolls`."
        ),
    )


def recorded(fn: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, Rolls]:
    """`fn(*args, **kwargs)` and every roll it made, in order."""
    with recording() as rolls:
        out = fn(*args, **kwargs)
    for r in rolls:
        r.rng = None  # one roll's seed would replay only the first: the call's seed replays all
    return out, tuple(rolls)


def rendered(rolls: Rolls, render: list[Rendering] | tuple[Rendering, ...]) -> list[Any]:
    """Each roll as `/v1/dice/roll` answers it, with the renderings asked for."""
    return [roll_result(r, render) for r in rolls]


def rendering(name: str, model: type[BaseModel], doc: str = "", **fields: Any) -> type[BaseModel]:
    """The body `name` of a rules call that rolls: its request `model` with `render` (and
    `fields`, as `create_model` takes them), documented as `model` unless `doc` is given."""
    bases = (model, Rendered)
    return create_model(name, __base__=bases, __doc__=doc or model.__doc__, **fields)


class DiceRolls(BaseModel):
    """The `dice_rolls` of a rules result that rolled dice (a mixin of its result model)."""

    dice_rolls: list[dice_results.RollResult] | None = Field(
        default=None,
        description="Every roll the rules made, in order, each like `/v1/dice/roll` "
        "answers it, with the renderings `render` named; only when `render` was given.",
    )


def with_dice(name: str, result: type[BaseModel]) -> type[BaseModel]:
    """The answer `name` of a rules call that rolls: its `result` with `dice_rolls`."""
    bases: tuple[type[BaseModel], ...] = (result, DiceRolls)
    return create_model(name, __base__=bases, __doc__=result.__doc__)


def rolled(service: Callable[[Any, str], BaseModel], result: type[M]) -> Callable[[Any, Call], M]:
    """A use-case row's service for a rules call that rolls: `service(request, seed)` with
    the caller's seed (or a fresh one), its rolls recorded and, when the request names a
    `render`, answered as `dice_rolls` in `result` (the service's result + DiceRolls)."""

    def run(request: Any, call: Call) -> M:
        out, rolls = recorded(service, request, request.seed or new_seed())
        values, fields = dict(out), set(out.model_fields_set)
        render = getattr(request, "render", None)  # a rules call without dice to show
        if render is not None:
            values["dice_rolls"] = rendered(rolls, render)
            fields.add("dice_rolls")
        return result.model_construct(fields, **values)

    return run
