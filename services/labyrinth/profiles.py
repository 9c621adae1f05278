"""Check profiles: each party member rolls the labyrinth's checks with their own system's dice.

The five actions name a D&D stat; a profile maps each stat (plus initiative and disarm)
to a dice expression. Default mappings for The Maze and Maze Rats are in docs/RULES.md.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, field_validator

from services.labyrinth.expressions import CheckTotal


class Stat(StrEnum):
    """The stat an action's check uses, as printed next to the action's name."""

    STR = "STR"
    DEX = "DEX"
    INT = "INT"
    WIS = "WIS"
    CHA = "CHA"


def _d20_stats() -> dict[Stat, str]:
    return {stat: "1d20" for stat in Stat}


class CheckProfile(BaseModel):
    """The dice expression a member rolls for each stat, initiative and disarming."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    stats: dict[Stat, CheckTotal] = Field(
        default_factory=_d20_stats,
        description="A dice expression (a total) for every stat.",
        json_schema_extra={"required": [s.value for s in Stat]},
    )
    initiative: CheckTotal = "1d20"
    disarm: CheckTotal = "1d20"

    @field_validator("stats")
    @classmethod
    def _every_stat(cls, value: dict[Stat, str]) -> dict[Stat, str]:
        missing = [s.value for s in Stat if s not in value]
        if missing:
            raise ValueError(f"missing stats: {', '.join(missing)}")
        return value

    def expression(self, stat: Stat) -> str:
        """The expression rolled for a check of `stat`."""
        return self.stats[stat]


class PartyMember(BaseModel):
    """A player character in the maze: a stable id, a name and a check profile."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1, max_length=64)
    name: str = Field(min_length=1, max_length=100)
    profile: CheckProfile = Field(default_factory=CheckProfile)


def _signed(n: int) -> str:
    return f"{n:+d}" if n else ""


def dnd5e_profile(
    modifiers: dict[Stat, int], initiative: int | None = None, disarm: int | None = None
) -> CheckProfile:
    """A 5e character: `1d20+mod` per stat; initiative uses DEX, disarm DEX unless given."""
    mods = {stat: modifiers.get(stat, 0) for stat in Stat}
    init = mods[Stat.DEX] if initiative is None else initiative
    dis = mods[Stat.DEX] if disarm is None else disarm
    return CheckProfile(
        stats={stat: f"1d20{_signed(m)}" for stat, m in mods.items()},
        initiative=f"1d20{_signed(init)}",
        disarm=f"1d20{_signed(dis)}",
    )


# The Maze's four abilities standing in for the five stats (docs/RULES.md).
MAZE_ABILITY_FOR_STAT: dict[Stat, str] = {
    Stat.STR: "ready",
    Stat.DEX: "ready",
    Stat.INT: "surroundings",
    Stat.WIS: "navigation",
    Stat.CHA: "interaction",
}


def the_maze_profile(dice: dict[str, int], modifiers: dict[str, int] | None = None) -> CheckProfile:
    """A The Maze runner: `1d{die}!+mod` of the mapped ability; initiative and disarm use Ready."""
    mods = modifiers or {}

    def expr(ability: str) -> str:
        return f"1d{dice[ability]}!{_signed(mods.get(ability, 0))}"

    return CheckProfile(
        stats={stat: expr(ability) for stat, ability in MAZE_ABILITY_FOR_STAT.items()},
        initiative=expr("ready"),
        disarm=expr("ready"),
    )


# Maze Rats' three abilities standing in for the five stats (docs/RULES.md).
MAZE_RATS_ABILITY_FOR_STAT: dict[Stat, str] = {
    Stat.STR: "strength",
    Stat.DEX: "dexterity",
    Stat.INT: "will",
    Stat.WIS: "will",
    Stat.CHA: "will",
}


def maze_rats_profile(strength: int = 0, dexterity: int = 0, will: int = 0) -> CheckProfile:
    """A Maze Rats character: `2d6+ability`; initiative and disarm use DEX."""
    scores = {"strength": strength, "dexterity": dexterity, "will": will}
    return CheckProfile(
        stats={
            stat: f"2d6{_signed(scores[ability])}"
            for stat, ability in MAZE_RATS_ABILITY_FOR_STAT.items()
        },
        initiative=f"2d6{_signed(dexterity)}",
        disarm=f"2d6{_signed(dexterity)}",
    )
