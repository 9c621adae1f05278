"""Rolls inside session events carry each die (docs/PROTOCOL.md, "Rolls inside events"),
for every viewer who may see the roll, rebuilt exactly from the stored faces."""

from __future__ import annotations

from collections import Counter
from typing import Any

from services.dice import SimRng
from services.labyrinth import ENCHANTED_FOREST_V1, ENCHANTED_FOREST_V2
from services.labyrinth.redact import GM, SPECTATOR, Viewer, redact
from tests.unit.labyrinth.play import started
from tests.unit.labyrinth.test_labyrinth_properties import attempt, next_command

VIEWERS = (GM, Viewer("player", "p1"), Viewer("player", "p2"), SPECTATOR)


def _records(value: Any) -> list[dict[str, Any]]:
    """Every roll record ({expression, faces, total, ...}) inside a JSON value."""
    if isinstance(value, dict):
        found = [value] if {"expression", "faces", "total"} <= value.keys() else []
        return found + [r for v in value.values() for r in _records(v)]
    if isinstance(value, list):
        return [r for v in value for r in _records(v)]
    return []


def test_every_roll_an_event_shows_carries_its_dice_for_every_viewer() -> None:
    rolled_in: Counter[str] = Counter()
    for seed in range(40):
        definition = (ENCHANTED_FOREST_V1, ENCHANTED_FOREST_V2)[seed % 2]
        game, _ = started(definition, 3, f"dice-{seed}")
        for pick in range(120):
            command = next_command(game.state, pick * 7 + seed)
            if command is None:
                break
            attempt(game, command, SimRng(f"{seed}-{pick}"))
        for event in game.events:
            for viewer in VIEWERS:
                shown = redact(event, viewer)
                for record in _records(shown):
                    dice = record["dice"]
                    assert [d["face"] for d in dice] == record["faces"], (event, record)
                    assert all(1 <= d["face"] <= d["sides"] for d in dice), record
                    rolled_in[shown["type"] if shown else "?"] += 1
    # The rolls of initiative, actions and traps were all seen (so all were checked).
    assert {"InitiativeRolled", "ActionAttempted", "TrapRolled"} <= rolled_in.keys(), rolled_in
