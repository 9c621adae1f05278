"""GraphQL inputs spelled GraphQL's own way, and the enum names the contract keeps.

- A new session's party: `PartyMemberInput`, whose `profile` is a `@oneOf` input, the REST
  body's profile spelled in GraphQL — exactly one of `checks` (a CheckProfile), `fiveE`,
  `theMaze`, `mazeRats` (a named system's profile) or `system` (that system's defaults).
- A campaign's cadence as a `@oneOf` input (REST: tagged by `kind`).
"""

from __future__ import annotations

import enum
from typing import Any

import strawberry
from strawberry.types.unset import UNSET

from api.graphql.generate import convert, input_type, one_of_input, plain
from api.usecases.markers import GRAPHQL_NAMES
from services.campaign.cadence import IntervalCadence, ManualCadence, WeeklyCadence
from services.campaign.rules import CampaignRules
from services.labyrinth.profiles import CheckProfile
from services.labyrinth.shown import TableRole
from services.labyrinth.vocab import Action

# The labyrinth's actions are `LabyrinthAction`, whichever model reaches them first; the
# roles a token grants `TableRole` (values as the REST bodies spell them).
GRAPHQL_NAMES[Action] = "LabyrinthAction"
TableRoleEnum: Any = convert(TableRole, [], "TableRole", True)

CheckProfileInput: Any = input_type(CheckProfile)


@strawberry.enum(name="ProfileSystem", description="A system whose default profile a member uses.")
class ProfileSystem(enum.Enum):
    FIVE_E = "5e"
    THE_MAZE = "the_maze"
    MAZE_RATS = "maze_rats"


@strawberry.input(description="A modifier per stat (missing stats: 0).")
class StatModifiersInput:
    STR: int | None = UNSET
    DEX: int | None = UNSET
    INT: int | None = UNSET
    WIS: int | None = UNSET
    CHA: int | None = UNSET


@strawberry.input(description="A 5e character: `1d20+mod` per stat; initiative and disarm DEX.")
class FiveEProfileInput:
    modifiers: StatModifiersInput | None = UNSET
    initiative: int | None = UNSET
    disarm: int | None = UNSET


@strawberry.input(description="A value per The Maze ability (missing abilities: the default).")
class MazeAbilitiesInput:
    ready: int | None = UNSET
    surroundings: int | None = UNSET
    navigation: int | None = UNSET
    interaction: int | None = UNSET


@strawberry.input(description="A The Maze runner: an exploding die (d6) and a modifier each.")
class TheMazeProfileInput:
    dice: MazeAbilitiesInput | None = UNSET
    modifiers: MazeAbilitiesInput | None = UNSET


@strawberry.input(description="A Maze Rats character: `2d6+ability`.")
class MazeRatsProfileInput:
    strength: int | None = UNSET
    dexterity: int | None = UNSET
    will: int | None = UNSET


@strawberry.input(one_of=True, description="A member's check profile: exactly one field.")
class ProfileInput:
    checks: CheckProfileInput | None = UNSET
    five_e: FiveEProfileInput | None = UNSET
    the_maze: TheMazeProfileInput | None = UNSET
    maze_rats: MazeRatsProfileInput | None = UNSET
    system: ProfileSystem | None = UNSET

    def to_dict(self) -> Any:
        """As the REST body's profile."""
        ((key, value),) = ((k, v) for k, v in plain(self).items() if v is not None)
        if key in ("checks", "system"):
            return value
        return {"system": {"five_e": "5e"}.get(key, key), **_given(value)}


def _given(value: dict[str, Any]) -> dict[str, Any]:
    """Fields given (nested: only the members named)."""
    return {k: _given(v) if isinstance(v, dict) else v for k, v in value.items() if v is not None}


@strawberry.input(description="A party member: an id, a name and (default d20s) a profile.")
class PartyMemberInput:
    id: str
    name: str
    profile: ProfileInput | None = None

    def to_dict(self) -> dict[str, Any]:
        """As the REST body's member."""
        out: dict[str, Any] = {"id": self.id, "name": self.name}
        if self.profile is not None:
            out["profile"] = self.profile.to_dict()
        return out


CadenceInput: Any = one_of_input(
    "CadenceInput",
    {"manual": ManualCadence, "interval": IntervalCadence, "weekly": WeeklyCadence},
    frozenset({"kind"}),
)
RulesInput: Any = input_type(CampaignRules)
