"""jsonable's per-type shortcuts give what the plain walk gives, for states and events."""

from __future__ import annotations

import dataclasses
import json
from enum import Enum, StrEnum
from typing import Any

from pydantic import BaseModel

from services.dice import SimRng
from services.labyrinth import ENCHANTED_FOREST_V1, RollInitiative, StartMaze
from services.labyrinth.codec import LabyrinthAggregate
from services.labyrinth.jsonable import jsonable
from services.labyrinth.records import RollRecord
from tests.unit.labyrinth.play import legal_commands, party


def _walk(value: Any) -> Any:
    """The plain walk, checking each value's kind in turn (what jsonable must equal)."""
    if isinstance(value, RollRecord):
        return value.to_json()
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _walk(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {str(_walk(k)): _walk(v) for k, v in value.items()}
    if isinstance(value, (frozenset, set)):
        return sorted(_walk(v) for v in value)
    if isinstance(value, (tuple, list)):
        return [_walk(v) for v in value]
    return value


def test_states_and_events_of_a_played_maze_come_out_as_the_plain_walk_gives() -> None:
    agg, rng = LabyrinthAggregate(), SimRng("jsonable")
    state = agg.initial()
    commands: list[Any] = [StartMaze(definition=ENCHANTED_FOREST_V1, party=party(3))]
    commands.append(RollInitiative())
    for step in range(40):
        command = commands[step] if step < len(commands) else None
        if command is None:
            legal = legal_commands(state)
            if not legal:
                break
            command = legal[step % len(legal)]
        for event in agg.decide(state, command, rng):
            assert jsonable(event) == _walk(event)
            state = agg.evolve(state, event)
        ours, plain = jsonable(state), _walk(state)
        assert ours == plain
        assert json.dumps(ours, sort_keys=True) == json.dumps(plain, sort_keys=True)


def test_enums_of_str_and_bools_keep_their_json_form() -> None:
    class Colour(StrEnum):
        RED = "red"

    assert jsonable(Colour.RED) == "red" and type(jsonable(Colour.RED)) is str
    assert jsonable(True) is True and jsonable({1: None}) == {"1": None}
