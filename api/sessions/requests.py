"""Request bodies of the session endpoints (REST and GraphQL share them)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, Discriminator, Field, Tag, TypeAdapter, model_validator

from api.models import Frozen, ShownName
from api.tables.tokens import DEFAULT_TTL_SECONDS, TokenTtl
from services.labyrinth import (
    ENCHANTED_FOREST_V1,
    ENCHANTED_FOREST_V2,
    STANDARD_DECK,
    CheckProfile,
    MazeDefinition,
    PartyMember,
    Stat,
    dnd5e_profile,
    maze_rats_profile,
    the_maze_profile,
)
from services.labyrinth.shown import TableRole

PRESETS: dict[str, MazeDefinition] = {
    "enchanted_forest_v1": ENCHANTED_FOREST_V1,
    "enchanted_forest_v2": ENCHANTED_FOREST_V2,
    "standard_deck": STANDARD_DECK,
    "standard26": STANDARD_DECK,  # the engine's own name for it
}
PresetName = Literal["enchanted_forest_v1", "enchanted_forest_v2", "standard_deck", "standard26"]
SESSION_ID = r"^[A-Za-z0-9_-]{1,64}$"
MAX_PARTY = 8


class FiveEProfile(Frozen):
    """A 5e character: `1d20+mod` per stat; initiative and disarm default to DEX."""

    system: Literal["5e"]
    modifiers: dict[Stat, Annotated[int, Field(ge=-10, le=20)]] = Field(default={})
    initiative: Annotated[int, Field(ge=-10, le=20)] | None = None
    disarm: Annotated[int, Field(ge=-10, le=20)] | None = None

    def to_domain(self) -> CheckProfile:
        """The check profile."""
        return dnd5e_profile(dict(self.modifiers), self.initiative, self.disarm)


Ability = Literal["ready", "surroundings", "navigation", "interaction"]
Die = Literal[4, 6, 8, 10, 12, 20]


class TheMazeProfile(Frozen):
    """A The Maze runner: an exploding die (default d6) and a modifier per ability."""

    system: Literal["the_maze"]
    dice: dict[Ability, Die] = Field(default={})
    modifiers: dict[Ability, Annotated[int, Field(ge=-10, le=20)]] = Field(default={})

    def to_domain(self) -> CheckProfile:
        """The check profile."""
        dice: dict[str, int] = dict.fromkeys(get_args(Ability), 6)
        dice.update({str(a): int(d) for a, d in self.dice.items()})
        return the_maze_profile(dice, {str(a): m for a, m in self.modifiers.items()})


class MazeRatsProfile(Frozen):
    """A Maze Rats character: `2d6+ability` (choose a DC that suits 2d6)."""

    system: Literal["maze_rats"]
    strength: Annotated[int, Field(ge=-5, le=10)] = 0
    dexterity: Annotated[int, Field(ge=-5, le=10)] = 0
    will: Annotated[int, Field(ge=-5, le=10)] = 0

    def to_domain(self) -> CheckProfile:
        """The check profile."""
        return maze_rats_profile(self.strength, self.dexterity, self.will)


NamedProfile = Annotated[
    FiveEProfile | TheMazeProfile | MazeRatsProfile, Field(discriminator="system")
]
_NAMED_PROFILE: TypeAdapter[FiveEProfile | TheMazeProfile | MazeRatsProfile] = TypeAdapter(
    NamedProfile
)


SystemName = Literal["5e", "the_maze", "maze_rats"]


def _profile_shape(value: Any) -> str | None:
    """Which kind of profile `value` is by its shape: an object with `system` is a named
    system's, one without it a CheckProfile, a string a system's name. Validated as that
    kind alone, a bad profile is refused for what is wrong with it (`'d66' is not dice
    notation`, at `profile.CheckProfile.stats.STR`), not first for the other kinds it is
    not (pydantic's "Unable to extract tag using discriminator 'system'")."""
    if isinstance(value, dict):
        return "NamedProfile" if "system" in value else "CheckProfile"
    if isinstance(value, str):
        return "SystemName"
    if isinstance(value, BaseModel):
        return "CheckProfile" if isinstance(value, CheckProfile) else "NamedProfile"
    return None


# The tags are the members' names, as pydantic's own union locations spell them.
MemberProfile = Annotated[
    Annotated[NamedProfile, Tag("NamedProfile")]
    | Annotated[CheckProfile, Tag("CheckProfile")]
    | Annotated[SystemName, Tag("SystemName")],
    Discriminator(
        _profile_shape,
        custom_error_type="profile_type",
        custom_error_message="a profile is an object (a CheckProfile, or a named system's "
        "with `system`) or a system's name",
    ),
]


class MemberSpec(Frozen):
    """A party member: id, name, and a CheckProfile, a named system's profile, or d20s."""

    id: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")
    name: ShownName
    profile: MemberProfile | None = None

    def to_domain(self) -> PartyMember:
        """The engine's party member."""
        profile = self.profile
        if isinstance(profile, str):  # the system's defaults
            profile = _NAMED_PROFILE.validate_python({"system": profile})
        if profile is None:
            return PartyMember(id=self.id, name=self.name)
        checks = profile if isinstance(profile, CheckProfile) else profile.to_domain()
        return PartyMember(id=self.id, name=self.name, profile=checks)


class CreateSession(Frozen):
    """A preset or a custom definition, the party, and options for the start."""

    preset: PresetName | None = None
    definition: MazeDefinition | None = None
    party: list[MemberSpec] = Field(min_length=1, max_length=MAX_PARTY)
    # Seeds the shuffle and the initiative only; later commands roll with the CSPRNG.
    seed: str | None = Field(default=None, min_length=1, max_length=200)
    roll_initiative: bool = True
    # How long the GM and spectator tokens last; the GM renews theirs (IssueToken).
    token_ttl_seconds: TokenTtl = DEFAULT_TTL_SECONDS

    @model_validator(mode="after")
    def _one_maze(self) -> CreateSession:
        if (self.preset is None) == (self.definition is None):
            raise ValueError("give exactly one of preset and definition")
        return self

    def maze(self) -> MazeDefinition:
        """The maze definition to play."""
        if self.definition is not None:
            return self.definition
        assert self.preset is not None
        return PRESETS[self.preset]


class IssueToken(Frozen):
    """GM: a token for a player (bound to `member`), a spectator, or the GM (renewal).

    A maze can span game nights: the GM renews their own token before it expires.
    """

    role: TableRole
    member: str | None = Field(default=None, min_length=1, max_length=64)
    ttl_seconds: TokenTtl = DEFAULT_TTL_SECONDS

    @model_validator(mode="after")
    def _member_for_players(self) -> IssueToken:
        if (self.role == "player") != (self.member is not None):
            raise ValueError("a player token needs `member`; GM and spectator tokens take none")
        return self


class RevokeTokens(Frozen):
    """GM: revoke one token (`token_id`), a member's, a role's, or (none named) every token.

    Every token of the scope issued up to now is refused from then on, on every path;
    tokens issued later are not affected.
    """

    token_id: str | None = Field(default=None, pattern=r"^[0-9a-f]{16}$")
    member: str | None = Field(default=None, min_length=1, max_length=64)
    role: TableRole | None = None

    @model_validator(mode="after")
    def _one_scope(self) -> RevokeTokens:
        if sum(v is not None for v in (self.token_id, self.member, self.role)) > 1:
            raise ValueError("name at most one of token_id, member and role")
        return self
