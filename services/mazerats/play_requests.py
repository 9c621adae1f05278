"""Inputs of the Maze Rats play use cases (encounters, healing, levels, sigils, turns)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, Strict, model_validator

from services.errors import field_error
from services.mazerats.abilities import Abilities, Ability, Score
from services.mazerats.advancement import Choice
from services.mazerats.character import Character
from services.mazerats.encounters import Side
from services.mazerats.gear import Armor
from services.mazerats.healing import HealMethod
from services.mazerats.levels import MAX_LEVEL
from services.mazerats.requests import CombatBonus, Request, Seed, lax
from services.mazerats.sigils import Overwrite
from services.mazerats.spells import SpellRequest
from services.mazerats.turns import Action

MAX_HP = 100
MAX_XP = 1_000_000
MAX_GROUP = 1000
MAX_LIST = 20
Hp = Annotated[int, Field(ge=0, le=MAX_HP)]
SigilName = Annotated[str, Field(min_length=1, max_length=100)]


class ReactionRequest(Request):
    """The party leader's WIL save against an NPC of unknown disposition."""

    leader_will: Score = 0
    path_covers: bool = False
    seed: Seed | None = None


class MoraleRequest(Request):
    """Whether an NPC faces more danger than expected and, if so (or forced), its WIL save."""

    will: Score = 0
    leader_defeated: bool = False
    group_size: int = Field(default=1, ge=1, le=MAX_GROUP)
    defeated: int = Field(default=0, ge=0, le=MAX_GROUP)
    max_hp: int = Field(default=1, ge=1, le=MAX_HP)
    hp: Hp = 1
    unexpected_danger: bool = False
    force: bool = False
    seed: Seed | None = None

    @model_validator(mode="after")
    def _within(self) -> MoraleRequest:
        if self.defeated > self.group_size:
            raise field_error("defeated", "defeated must not exceed group_size")
        if self.hp > self.max_hp:
            raise field_error("hp", "hp must not exceed max_hp")
        return self


class InitiativeRequest(Request):
    """Which side (if any) was surprised, and the WIL of each surprised character."""

    surprised: Side | None = lax(None)
    surprised_wills: list[Score] = Field(default_factory=list, max_length=MAX_LIST)
    seed: Seed | None = None


class HealRequest(Request):
    """A healing attempt: ration at rest, or bandage with a WIL save; once a day each."""

    method: HealMethod = lax(HealMethod.RATION)
    hp: Hp
    max_hp: int = Field(ge=1, le=MAX_HP)
    resting: bool = False
    will: Score = 0
    path_covers: bool = False
    used_today: list[Annotated[HealMethod, Strict(False)]] = Field(
        default_factory=list, max_length=3
    )
    seed: Seed | None = None


class StandingRequest(Request):
    """A character's XP."""

    xp: int = Field(ge=0, le=MAX_XP)


class LevelUpRequest(Request):
    """Gain the level after `level`, raising what the player chooses."""

    level: int = Field(ge=1, le=MAX_LEVEL - 1)
    abilities: Abilities = Field(default_factory=Abilities)
    combat_bonus: CombatBonus = 1
    choice: Choice | None = lax(None)
    ability: Ability | None = lax(None)


class InscribeRequest(Request):
    """New sigils for a bearer; slots given, or from the level."""

    borne: list[SigilName] = Field(default_factory=list, max_length=MAX_LIST)
    new: list[SigilName] = Field(default_factory=list, max_length=MAX_LIST)
    slots: int | None = Field(default=None, ge=0, le=MAX_LIST)
    level: int | None = Field(default=None, ge=1, le=MAX_LEVEL)
    overwrite: Overwrite = lax(Overwrite.OLDEST)

    @model_validator(mode="after")
    def _one_source(self) -> InscribeRequest:
        if (self.slots is None) == (self.level is None):
            raise ValueError("give either slots or level")
        return self


class TurnRequest(Request):
    """A turn's actions, the armor worn, and whether a ranged attack is made in melee."""

    actions: list[Annotated[Action, Strict(False)]] = Field(min_length=1, max_length=4)
    armor: Armor = lax(Armor.NONE)
    ranged: bool = False
    in_close_combat: bool = False


class CastRequest(Request):
    """Cast a spell: the spell as priced by /spell-costs, and the caster (hp and will, or
    a character sheet and the sigil it casts from)."""

    spell: SpellRequest = Field(default_factory=SpellRequest)
    hp: Hp | None = None
    will: Score = 0
    path_covers: bool = False
    character: Character | None = None
    sigil: SigilName | None = None
    seed: Seed | None = None

    @model_validator(mode="after")
    def _one_caster(self) -> CastRequest:
        if (self.hp is None) == (self.character is None):
            raise ValueError("give either hp (and will) or character (and sigil)")
        if self.character is not None and (self.sigil is None or self.will != 0):
            raise ValueError("a character casts from a sigil it bears; its WIL is its own")
        return self
