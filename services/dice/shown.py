"""A thrown die as every answer shows it (`/v1/dice/roll`'s `dice`, a session event's roll)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict

from services.markers import LongInt, Named

DieFlag = Annotated[
    Literal[
        "exploded",
        "rerolled",
        "dropped",
        "success",
        "failure",
        "penetrated",
        "compounded",
        "clamped",
    ],
    Named("DieFlag"),
]


class RolledDie(BaseModel):
    """One throw: its order, term and die indices, the face shown, the value counted."""

    model_config = ConfigDict(frozen=True, strict=True)

    order: int
    term: int
    die: int
    sides: int
    face: LongInt
    value: LongInt
    active: bool
    flags: list[DieFlag]
    label: str | None = None  # the dice term's label (`1d8[fire]`)
