"""Chance, the one shape of an exact probability in every rules answer."""

from __future__ import annotations

from fractions import Fraction

from pydantic import BaseModel, ConfigDict, Field


class Chance(BaseModel):
    """An exact probability: the fraction and its float."""

    model_config = ConfigDict(frozen=True, strict=True)

    fraction: str = Field(
        pattern=r"^-?\d+/\d+$", examples=["5/12"], description='Exact, as "numerator/denominator".'
    )
    float: float

    @classmethod
    def of(cls, p: Fraction) -> Chance:
        """An exact probability as its reduced fraction and float."""
        return cls(fraction=f"{p.numerator}/{p.denominator}", float=float(p))
