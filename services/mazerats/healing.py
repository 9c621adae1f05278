"""Healing: half the damage, rounded up, by a ration at rest or a bandage and a WIL save."""

from __future__ import annotations

from collections.abc import Collection
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from services.dice import Rng
from services.mazerats.errors import HealingUnavailable, MazeRatsError
from services.mazerats.saves import MazeRatsSaveRoll, roll_save


class HealMethod(StrEnum):
    """The two mundane ways to heal; magic is not one ("Magic can never heal HP")."""

    RATION = "ration"
    BANDAGE = "bandage"
    MAGIC = "magic"


class Healing(BaseModel):
    """The outcome of a healing attempt and what is used up for the day."""

    model_config = ConfigDict(frozen=True)

    method: HealMethod
    save: MazeRatsSaveRoll | None
    healed: int
    hp: int
    used_today: tuple[HealMethod, ...]  # in a stable order


def half_damage(hp: int, max_hp: int) -> int:
    """Half the damage taken, rounded up."""
    if not 0 <= hp <= max_hp:
        raise MazeRatsError(f"HP must be within 0..{max_hp}", code="hp_out_of_range")
    return (max_hp - hp + 1) // 2


def heal(
    rng: Rng,
    method: HealMethod,
    hp: int,
    max_hp: int,
    *,
    resting: bool = False,
    will: int = 0,
    path_covers: bool = False,
    used_today: Collection[HealMethod] = (),
) -> Healing:
    """Heal by a ration during a rest, or by a bandage with a passed WIL save; once a day each."""
    if method is HealMethod.MAGIC:
        raise HealingUnavailable("magic can never heal HP", code="magic_cannot_heal")
    if method in used_today:
        raise HealingUnavailable(
            f"healing by {method.value} works once per day", code="healing_used_today"
        )
    if hp == 0:
        # "Zero HP means death": nothing brings the dead back by rations or bandages.
        raise HealingUnavailable("a character at zero HP is dead", code="character_dead")
    amount = half_damage(hp, max_hp)
    save: MazeRatsSaveRoll | None = None
    if method is HealMethod.RATION:
        if not resting:
            raise HealingUnavailable(
                "a ration heals only when eaten during a rest", code="ration_needs_rest"
            )
    else:
        save = roll_save(rng, will, path_covers)
        if not save.success:
            amount = 0
    return Healing(
        method=method,
        save=save,
        healed=amount,
        hp=hp + amount,
        used_today=tuple(sorted({*used_today, method})),
    )
