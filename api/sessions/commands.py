"""The commands a session accepts over the API, tagged by `type`, and who may send them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

from api.sessions.tokens import Forbidden, RoleToken
from services.labyrinth import commands as cmd
from services.labyrinth.vocab import Action, EncounterOutcome

_Id = Annotated[str, Field(min_length=1, max_length=64)]


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    seen_version: int | None = Field(default=None, ge=0)
    command_id: str | None = Field(default=None, min_length=8, max_length=128)


class TakeAction(_Command):
    type: Literal["TakeAction"]
    player: _Id
    action: Action
    cards: list[_Id] = Field(default=[], max_length=3)
    target: _Id | None = None

    def to_domain(self) -> cmd.Command:
        return cmd.TakeAction(
            player=self.player, action=self.action, cards=tuple(self.cards), target=self.target
        )


class FlipCard(_Command):
    type: Literal["FlipCard"]
    player: _Id
    card: _Id

    def to_domain(self) -> cmd.Command:
        return cmd.FlipCard(player=self.player, card=self.card)


class ChooseCard(_Command):
    type: Literal["ChooseCard"]
    player: _Id
    card: _Id

    def to_domain(self) -> cmd.Command:
        return cmd.ChooseCard(player=self.player, card=self.card)


class AttemptDisarm(_Command):
    type: Literal["AttemptDisarm"]
    player: _Id

    def to_domain(self) -> cmd.Command:
        return cmd.AttemptDisarm(player=self.player)


class SkipDisarm(_Command):
    type: Literal["SkipDisarm"]
    player: _Id

    def to_domain(self) -> cmd.Command:
        return cmd.SkipDisarm(player=self.player)


class ResolveEncounter(_Command):
    type: Literal["ResolveEncounter"]
    outcome: EncounterOutcome

    def to_domain(self) -> cmd.Command:
        return cmd.ResolveEncounter(outcome=self.outcome)


class EndMaze(_Command):
    type: Literal["EndMaze"]
    reason: str = Field(default="ended_by_gm", min_length=1, max_length=200)

    def to_domain(self) -> cmd.Command:
        return cmd.EndMaze(reason=self.reason)


class RollInitiative(_Command):
    type: Literal["RollInitiative"]

    def to_domain(self) -> cmd.Command:
        return cmd.RollInitiative()


PlayerCommand = TakeAction | FlipCard | ChooseCard | AttemptDisarm | SkipDisarm
GmCommand = ResolveEncounter | EndMaze | RollInitiative
SessionCommand = Annotated[PlayerCommand | GmCommand, Field(discriminator="type")]


class CommandBody(RootModel[SessionCommand]):
    """The body of POST /v1/sessions/{id}/commands: one command tagged by `type`."""


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
