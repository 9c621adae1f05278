"""The commands a session accepts over the API, tagged by `type`, and who may send them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, RootModel

from api.models import Frozen, RollLabel
from api.tables.tokens import Forbidden, RoleToken
from services.labyrinth import commands as cmd
from services.labyrinth.overrides import MAX_POINTS, MAX_REASON, MAX_SLEEP_TURNS, MAX_TRAP_DC
from services.labyrinth.vocab import Action, EncounterOutcome
from services.markers import LongInt

_Id = Annotated[str, Field(min_length=1, max_length=64)]
# Shown to the table with the override; never a card's internal id or playing-card label.
_Reason = Annotated[str, Field(min_length=1, max_length=MAX_REASON)]


_NOT_DOMAIN = frozenset({"type", "seen_version", "command_id"})


class _Command(Frozen):
    seen_version: LongInt | None = Field(default=None, ge=0)
    command_id: str | None = Field(default=None, min_length=8, max_length=128)

    def to_domain(self) -> cmd.Command:
        """The engine's command of the same name, with the same fields (lists as tuples)."""
        # The fields from __dict__ (extra="forbid": it holds them all, nothing else):
        # iterating the model itself costs as much as parsing the whole body.
        fields = {
            name: tuple(value) if isinstance(value, list) else value
            for name, value in self.__dict__.items()
            if name not in _NOT_DOMAIN
        }
        command: cmd.Command = getattr(cmd, type(self).__name__)(**fields)
        return command


class TakeAction(_Command):
    type: Literal["TakeAction"]
    player: _Id
    action: Action
    cards: list[_Id] = Field(default=[], max_length=3)
    target: _Id | None = None


class FlipCard(_Command):
    type: Literal["FlipCard"]
    player: _Id
    card: _Id


class ChooseCard(_Command):
    type: Literal["ChooseCard"]
    player: _Id
    card: _Id


class AttemptDisarm(_Command):
    type: Literal["AttemptDisarm"]
    player: _Id


class SkipDisarm(_Command):
    type: Literal["SkipDisarm"]
    player: _Id


class ResolveEncounter(_Command):
    type: Literal["ResolveEncounter"]
    outcome: EncounterOutcome


class EndMaze(_Command):
    type: Literal["EndMaze"]
    reason: str = Field(default="ended_by_gm", min_length=1, max_length=200)


class RollInitiative(_Command):
    type: Literal["RollInitiative"]


# GM overrides (docs/RULES.md, "GM overrides"): each carries the GM's reason.


class OverrideMember(_Command):
    """GM: set a member's sleep (own turns still to skip; 0 wakes) and/or whether they play."""

    type: Literal["OverrideMember"]
    member: _Id
    asleep_turns: int | None = Field(default=None, ge=0, le=MAX_SLEEP_TURNS)
    in_play: bool | None = None
    reason: _Reason


class OverrideTurn(_Command):
    """GM: end the running turn now (nothing pending resolves); `next_player` acts next."""

    type: Literal["OverrideTurn"]
    next_player: _Id | None = None
    reason: _Reason


class RevealRiverCard(_Command):
    """GM: turn a face-down river card (slot id) face up for the table, unresolved."""

    type: Literal["RevealRiverCard"]
    card: _Id
    reason: _Reason


class MoveRiverCard(_Command):
    """GM: move a river card out of the river (a face-down one stays unseen)."""

    type: Literal["MoveRiverCard"]
    card: _Id
    to: cmd.RiverDestination
    refill: bool = False
    reason: _Reason


class OverrideScore(_Command):
    """GM: set the Right Path and/or Monster point counts."""

    type: Literal["OverrideScore"]
    right_paths: int | None = Field(default=None, ge=0, le=MAX_POINTS)
    monster_points: int | None = Field(default=None, ge=0, le=MAX_POINTS)
    reason: _Reason


class OverrideActions(_Command):
    """GM: set the locked and removed actions and/or the turn's action use."""

    type: Literal["OverrideActions"]
    locked: list[Action] | None = Field(default=None, max_length=len(Action))
    removed: list[Action] | None = Field(default=None, max_length=len(Action))
    action_taken: bool | None = None
    reason: _Reason


class OverrideTrap(_Command):
    """GM: hand-pick the pending trap (`row` of the trap table) and/or its DC."""

    type: Literal["OverrideTrap"]
    row: int | None = Field(default=None, ge=0, le=100)
    dc: int | None = Field(default=None, ge=1, le=MAX_TRAP_DC)
    reason: _Reason


class RollDice(_Command):
    """A member rolls at the table (the GM too, as `player` null or any member; a
    player's `player` null is their own member)."""

    type: Literal["RollDice"]
    player: _Id | None = None
    expression: str = Field(min_length=1, max_length=200)
    label: RollLabel | None = None
    visibility: cmd.Visibility = "everyone"
    to: list[_Id] = Field(default=[], max_length=16)

    def to_domain(self) -> cmd.Command:
        return cmd.RollDice(
            by=self.player,
            expression=self.expression,
            label=self.label,
            visibility=self.visibility,
            to=tuple(self.to),
        )


PlayerCommand = TakeAction | FlipCard | ChooseCard | AttemptDisarm | SkipDisarm | RollDice
GmOverride = (
    OverrideMember
    | OverrideTurn
    | RevealRiverCard
    | MoveRiverCard
    | OverrideScore
    | OverrideActions
    | OverrideTrap
)
GmCommand = ResolveEncounter | EndMaze | RollInitiative | GmOverride
SessionCommand = Annotated[PlayerCommand | GmCommand, Field(discriminator="type")]


class CommandBody(RootModel[SessionCommand]):
    """The body of POST /v1/sessions/{id}/commands: one command tagged by `type`."""


def own_roll(grant: RoleToken, command: PlayerCommand | GmCommand) -> PlayerCommand | GmCommand:
    """A player's `RollDice` naming no member is their own (the GM's is the GM's)."""
    if isinstance(command, RollDice) and command.player is None and grant.role == "player":
        return command.model_copy(update={"player": grant.member})
    return command


def authorize(grant: RoleToken, command: PlayerCommand | GmCommand) -> None:
    """Spectators only watch; players act only as themselves; the GM does anything."""
    if grant.role == "gm":
        return
    if grant.role == "spectator":
        raise Forbidden("a spectator can only watch")
    if isinstance(command, GmCommand):
        raise Forbidden(f"only the GM may send {command.type}")
    if command.player != grant.member:
        raise Forbidden("a player may only act as their own party member")
