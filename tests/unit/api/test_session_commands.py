"""Who may send which session command: the GM any, players as themselves, spectators none."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from api.sessions.commands import CommandBody, authorize
from api.tables.tokens import Forbidden, RoleToken
from services.labyrinth import commands as cmd
from services.labyrinth.vocab import Action

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


OVERRIDES = [
    {"type": "OverrideMember", "member": "p1", "asleep_turns": 0, "reason": "woke up"},
    {"type": "OverrideMember", "member": "p1", "in_play": False, "reason": "left"},
    {"type": "OverrideTurn", "reason": "afk"},
    {"type": "OverrideTurn", "next_player": "p1", "reason": "their go"},
    {"type": "RevealRiverCard", "card": "s1", "reason": "a glimpse"},
    {"type": "MoveRiverCard", "card": "s1", "to": "deck_bottom", "refill": True, "reason": "r"},
    {"type": "OverrideScore", "right_paths": 2, "reason": "misclick"},
    {"type": "OverrideActions", "locked": [], "action_taken": False, "reason": "redo"},
    {"type": "OverrideTrap", "row": 1, "dc": 12, "reason": "hand-picked"},
]


@pytest.mark.parametrize("fields", OVERRIDES, ids=lambda f: str(f["type"]))
def test_gm_overrides_are_the_gms_alone(fields: dict[str, object]) -> None:
    body = command(**fields).root
    authorize(GM, body)
    # Even an override about the player's own member is the GM's.
    for grant in (P1, WATCHER):
        with pytest.raises(Forbidden):
            authorize(grant, body)


@pytest.mark.parametrize(
    "fields",
    [
        {"type": "OverrideTurn"},  # no reason
        {"type": "OverrideTurn", "reason": ""},
        {"type": "OverrideTurn", "reason": "x" * 201},
        {"type": "OverrideMember", "member": "p1", "asleep_turns": -1, "reason": "r"},
        {"type": "OverrideMember", "member": "p1", "asleep_turns": 21, "reason": "r"},
        {"type": "MoveRiverCard", "card": "s1", "to": "hand", "reason": "r"},
        {"type": "OverrideActions", "locked": ["teleport"], "reason": "r"},
        {"type": "OverrideTrap", "dc": 0, "reason": "r"},
        {"type": "OverrideScore", "right_paths": -1, "reason": "r"},
        {"type": "RevealRiverCard", "card": "s1", "reason": "r", "extra": 1},
    ],
)
def test_malformed_overrides_are_refused_before_the_engine(fields: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        command(**fields)


def test_an_override_becomes_the_engines_command() -> None:
    body = command(type="OverrideActions", locked=["forge_a_path"], reason="r").root
    assert body.to_domain() == cmd.OverrideActions(locked=(Action.FORGE_A_PATH,), reason="r")


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        (
            {"type": "TakeAction", "player": "p1", "action": "scout_ahead", "cards": ["s1"]},
            cmd.TakeAction(player="p1", action=Action.SCOUT_AHEAD, cards=("s1",)),
        ),
        ({"type": "EndMaze", "command_id": "retry-key-1"}, cmd.EndMaze()),
        (
            {"type": "MoveRiverCard", "card": "s2", "to": "discard", "reason": "r"},
            cmd.MoveRiverCard(card="s2", to="discard", reason="r"),
        ),
        (
            {"type": "RollDice", "expression": "1d6", "to": ["p1"], "visibility": "whisper"},
            cmd.RollDice(by=None, expression="1d6", visibility="whisper", to=("p1",)),
        ),
    ],
)
def test_a_command_becomes_the_engines_command_of_its_name(
    fields: dict[str, object], expected: cmd.Command
) -> None:
    assert command(**fields).root.to_domain() == expected
