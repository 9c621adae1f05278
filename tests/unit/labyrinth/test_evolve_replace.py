"""evolve's state replace: the same state dataclasses.replace builds, the old one untouched."""

from __future__ import annotations

import dataclasses

import pytest

from services.dice import SimRng
from services.labyrinth import ENCHANTED_FOREST_V2, MazeState, RollInitiative, StartMaze
from services.labyrinth.codec import LabyrinthAggregate
from services.labyrinth.evolve import replace
from tests.unit.labyrinth.play import party


def _played() -> MazeState:
    agg = LabyrinthAggregate()
    state, rng = agg.initial(), SimRng("replace")
    for command in (StartMaze(definition=ENCHANTED_FOREST_V2, party=party(3)), RollInitiative()):
        for event in agg.decide(state, command, rng):
            state = agg.evolve(state, event)
    return state


def test_replace_builds_what_dataclasses_replace_builds_and_leaves_the_old_state() -> None:
    state = _played()
    before = dataclasses.asdict(state)
    changes = {"phase": "trap", "round": state.round + 1, "river": state.river[1:], "trap": None}
    ours = replace(state, **changes)
    theirs = dataclasses.replace(state, **changes)  # type: ignore[arg-type]
    assert ours == theirs and type(ours) is MazeState
    assert dataclasses.asdict(ours) == dataclasses.asdict(theirs)
    assert dataclasses.asdict(state) == before and ours is not state
    assert replace(state) == state


def test_replace_refuses_a_field_the_state_does_not_have() -> None:
    with pytest.raises(TypeError, match="no field 'hp'"):
        replace(_played(), hp=3)


def test_a_state_holding_more_than_its_fields_is_replaced_the_slow_way() -> None:
    state = _played()
    object.__setattr__(state, "memo", 1)  # a cached value the copy would carry over
    changed = replace(state, round=9)
    assert changed.round == 9 and not hasattr(changed, "memo")
