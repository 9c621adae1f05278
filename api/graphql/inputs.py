"""GraphQL inputs spelled GraphQL's own way, and the enum names the contract keeps.

- A new session's party: `PartyMemberInput`, whose `profile` is a `@oneOf` input, the REST
  body's profile spelled in GraphQL — exactly one of `checks` (a CheckProfile), `fiveE`,
  `theMaze`, `mazeRats` (a named system's profile) or `system` (that system's defaults).
- A campaign's cadence as a `@oneOf` input (REST: tagged by `kind`).
"""

from __future__ import annotations

import enum
import typing
from typing import Any

import strawberry
from pydantic import BaseModel
from strawberry.utils.str_converters import to_camel_case

from api.graphql.generate import convert, input_type, one_of_input, plain
from api.sessions.requests import FiveEProfile, MazeRatsProfile, MemberSpec, TheMazeProfile
from api.usecases.markers import GRAPHQL_NAMES
from services.campaign.cadence import IntervalCadence, ManualCadence, WeeklyCadence
from services.campaign.rules import CampaignRules
from services.labyrinth.profiles import CheckProfile
from services.labyrinth.shown import TableRole
from services.labyrinth.vocab import Action

# The labyrinth's actions are `LabyrinthAction`, whichever model reaches them first; the
# roles a token grants `TableRole` (values as the REST bodies spell them).
GRAPHQL_NAMES[Action] = "LabyrinthAction"
GRAPHQL_NAMES[MemberSpec] = "PartyMember"
TableRoleEnum: Any = convert(TableRole, [], "TableRole", True)


@strawberry.enum(name="ProfileSystem", description="A system whose default profile a member uses.")
class ProfileSystem(enum.Enum):
    FIVE_E = "5e"
    THE_MAZE = "the_maze"
    MAZE_RATS = "maze_rats"


_NAMED: dict[str, type[BaseModel]] = {
    "five_e": FiveEProfile,
    "the_maze": TheMazeProfile,
    "maze_rats": MazeRatsProfile,
}
# A named system's profile by the `system` it is tagged with (`5e`: `five_e`).
_BY_SYSTEM = {
    typing.get_args(model.model_fields["system"].annotation)[0]: key
    for key, model in _NAMED.items()
}
ProfileInput: Any = one_of_input(
    "ProfileInput",
    {"checks": CheckProfile, **_NAMED, "system": ProfileSystem},
    frozenset({"system"}),
    "A member's check profile: exactly one field.",
)
PartyMemberInput: Any = input_type(MemberSpec, spelled={"profile": ProfileInput | None})


def member_body(member: Any) -> dict[str, Any]:
    """A `PartyMemberInput` as the REST body's member (a named profile tagged by `system`)."""
    body: dict[str, Any] = plain(member)
    if body.get("profile") is not None:
        ((key, value),) = body["profile"].items()
        if key in _NAMED:
            system = typing.get_args(_NAMED[key].model_fields["system"].annotation)[0]
            value = {**_given(value), "system": system}
        body["profile"] = value
    return body


def member_field(field: str) -> str:
    """A refused field of a `PartyMemberInput` as GraphQL spells it: the profile's kind
    as its `ProfileInput` field (`party.0.profile.checks.stats.STR`, not the REST body's
    `party.0.profile.CheckProfile.stats.STR`; `...profile.fiveE.modifiers.STR` for
    `...profile.NamedProfile.5e.modifiers.STR`)."""
    parts = field.split(".")
    if len(parts) < 4 or parts[0] != "party" or parts[2] != "profile":
        return field
    kind, rest = parts[3], parts[4:]
    if kind == "CheckProfile":
        parts = [*parts[:3], "checks", *rest]
    elif kind == "NamedProfile" and rest and rest[0] in _BY_SYSTEM:
        parts = [*parts[:3], to_camel_case(_BY_SYSTEM[rest[0]]), *rest[1:]]
    return ".".join(parts)


def _given(value: dict[str, Any]) -> dict[str, Any]:
    """Fields given (nested: only the members named)."""
    return {k: _given(v) if isinstance(v, dict) else v for k, v in value.items() if v is not None}


CadenceInput: Any = one_of_input(
    "CadenceInput",
    {"manual": ManualCadence, "interval": IntervalCadence, "weekly": WeeklyCadence},
    frozenset({"kind"}),
)
RulesInput: Any = input_type(CampaignRules)
