"""The table's roll log: any member (or the GM) rolls in the session, recorded as an
event and shown to each viewer as its visibility allows (issue: a table dice log)."""

from __future__ import annotations

import pytest

from services.dice import DiceError
from services.labyrinth import ENCHANTED_FOREST_V2, GM, SPECTATOR, Viewer, redact
from services.labyrinth.commands import EndMaze, RollDice
from services.labyrinth.errors import LabyrinthError
from services.labyrinth.events import DiceRolled
from tests.unit.labyrinth.play import Game, started

P1, P2, P3 = Viewer("player", "p1"), Viewer("player", "p2"), Viewer("player", "p3")


def _rolled(
    visibility: str = "everyone", to: tuple[str, ...] = (), by: str | None = "p1"
) -> tuple[Game, DiceRolled]:
    game, rng = started(ENCHANTED_FOREST_V2, 3, "roll-log")
    (event,) = game.do(
        RollDice(by=by, expression="2d6+1", label="perception", visibility=visibility, to=to),  # type: ignore[arg-type]
        rng,
    )
    assert isinstance(event, DiceRolled)
    return game, event


def test_a_roll_is_recorded_with_every_face_and_changes_nothing_on_the_table() -> None:
    game, event = _rolled()
    before = game.events[-2]
    assert event.roll.expression == "2d6+1" and len(event.roll.faces) == 2
    assert event.roll.total == sum(event.roll.faces) + 1
    assert game.state.phase == "turn" and before is not event


@pytest.mark.parametrize(
    ("visibility", "to", "sees"),
    [
        ("everyone", (), {"gm", "p1", "p2", "p3", "spectator"}),
        ("gm", (), {"gm", "p1"}),
        ("whisper", ("p2",), {"gm", "p1", "p2"}),
    ],
)
def test_each_viewer_sees_a_roll_as_its_visibility_allows(
    visibility: str, to: tuple[str, ...], sees: set[str]
) -> None:
    _, event = _rolled(visibility, to)
    viewers = {"gm": GM, "p1": P1, "p2": P2, "p3": P3, "spectator": SPECTATOR}
    for name, viewer in viewers.items():
        shown = redact(event, viewer)
        assert shown is not None and shown["type"] == "DiceRolled" and shown["by"] == "p1"
        if name in sees:
            assert shown["roll"]["total"] == event.roll.total, name
            assert shown["label"] == "perception"
        else:
            # Someone rolled, and that is all: no expression, label, faces or total.
            assert shown == {
                "type": "DiceRolled",
                "by": "p1",
                "visibility": visibility,
                "hidden": True,
            }, name


def test_a_gm_roll_has_no_member() -> None:
    _, event = _rolled("gm", by=None)
    assert redact(event, P1) == {
        "type": "DiceRolled",
        "by": None,
        "visibility": "gm",
        "hidden": True,
    }


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (RollDice(by="p9", expression="1d6"), "unknown_player"),
        (RollDice(by="p1", expression="1d6", visibility="whisper"), "invalid_roll"),
        (RollDice(by="p1", expression="1d6", to=("p2",)), "invalid_roll"),
        (RollDice(by="p1", expression="1d6", visibility="whisper", to=("p7",)), "unknown_player"),
    ],
)
def test_a_roll_names_real_members_and_a_whisper_its_audience(command: RollDice, code: str) -> None:
    game, rng = started(ENCHANTED_FOREST_V2, 3, "roll-log")
    with pytest.raises(LabyrinthError) as refused:
        game.do(command, rng)
    assert refused.value.code == code


def test_a_bad_expression_is_the_dice_engines_refusal_and_an_ended_maze_takes_no_roll() -> None:
    game, rng = started(ENCHANTED_FOREST_V2, 3, "roll-log")
    with pytest.raises(DiceError):
        game.do(RollDice(by="p1", expression="2d"), rng)
    game.do(EndMaze(), rng)
    with pytest.raises(LabyrinthError) as refused:
        game.do(RollDice(by="p1", expression="1d6"), rng)
    assert refused.value.code == "maze_ended"
