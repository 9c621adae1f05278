"""Who may send which session command: the GM any, players as themselves, spectators none."""

from __future__ import annotations

import pytest

from api.sessions.commands import CommandBody, authorize
from api.sessions.tokens import Forbidden, RoleToken

GM = RoleToken("s1", "gm", None, 0, 1, "t")
P1 = RoleToken("s1", "player", "p1", 0, 1, "t")
WATCHER = RoleToken("s1", "spectator", None, 0, 1, "t")


def command(**fields: object) -> CommandBody:
    return CommandBody.model_validate(fields)


def test_a_player_acts_as_themselves_only() -> None:
    authorize(P1, command(type="FlipCard", player="p1", card="s1").root)
    with pytest.raises(Forbidden):
        authorize(P1, command(type="AttemptDisarm", player="p2").root)


@pytest.mark.parametrize(
    "fields",
    [
        {"type": "EndMaze"},
        {"type": "RollInitiative"},
        {"type": "ResolveEncounter", "outcome": "party_fled"},
    ],
)
def test_gm_commands_are_the_gms_alone(fields: dict[str, object]) -> None:
    authorize(GM, command(**fields).root)
    with pytest.raises(Forbidden):
        authorize(P1, command(**fields).root)


def test_the_gm_may_act_for_any_player_and_a_spectator_for_none() -> None:
    flip = command(type="FlipCard", player="p3", card="x").root
    authorize(GM, flip)
    with pytest.raises(Forbidden):
        authorize(WATCHER, flip)


def test_a_command_carries_its_idempotency_key_and_seen_version() -> None:
    body = command(type="SkipDisarm", player="p1", command_id="abcdefgh", seen_version=4).root
    assert body.command_id == "abcdefgh" and body.seen_version == 4
