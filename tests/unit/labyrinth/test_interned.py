"""A process keeps one copy of each maze definition and card table (interned.py): every
state that holds an equal one holds that copy, however it was made."""

from __future__ import annotations

import pytest

from services.dice import SimRng
from services.labyrinth import ENCHANTED_FOREST_V1, ENCHANTED_FOREST_V2, StartMaze, interned
from services.labyrinth.codec import LabyrinthAggregate, decode_state, encode_state
from services.labyrinth.definition import MazeDefinition
from services.labyrinth.state import MazeState
from tests.unit.labyrinth.play import party

AGG = LabyrinthAggregate()


def started(definition: MazeDefinition, seed: int) -> MazeState:
    """A maze started from a copy of `definition` (as a request would parse it)."""
    copy = MazeDefinition.model_validate(definition.model_dump())
    assert copy == definition and copy is not definition
    _, state = AGG.decided(AGG.initial(), StartMaze(definition=copy, party=party(2)), SimRng(seed))
    return state


def test_sessions_of_one_maze_share_its_definition_and_card_table() -> None:
    one, two = started(ENCHANTED_FOREST_V1, 1), started(ENCHANTED_FOREST_V1, 2)
    assert one.deck != two.deck  # two sessions, shuffled apart
    assert one.definition is two.definition and one.cards is two.cards
    other = started(ENCHANTED_FOREST_V2, 1)
    assert other.definition is not one.definition and other.definition != one.definition


def test_a_replayed_or_snapshot_state_holds_the_same_copy() -> None:
    live = started(ENCHANTED_FOREST_V1, 3)
    events, _ = AGG.decided(
        AGG.initial(), StartMaze(definition=ENCHANTED_FOREST_V1, party=party(2)), SimRng(3)
    )
    replayed = AGG.initial()
    for event in events:  # as a cold load folds them, from their stored form
        replayed = AGG.evolve(replayed, AGG.decode_event(*AGG.encode_event(event)))
    assert replayed == live
    assert replayed.definition is live.definition and replayed.cards is live.cards
    restored = decode_state(encode_state(live))
    assert restored == live
    assert restored.definition is live.definition and restored.cards is live.cards
    assert decode_state(encode_state(AGG.initial())) == AGG.initial()  # nothing to share


def test_only_a_few_small_ones_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing here counts in the state cache's bytes: a definition or card table too large
    is not kept (its states hold their own), and past the limit the oldest goes."""
    monkeypatch.setattr(interned, "_definitions", {})  # none kept yet
    monkeypatch.setattr(interned, "_card_tables", {})
    largest = interned.LARGEST_DEFINITION, interned.LARGEST_TABLE
    monkeypatch.setattr(interned, "LARGEST_DEFINITION", 100)
    monkeypatch.setattr(interned, "LARGEST_TABLE", 10)
    large = MazeDefinition.model_validate(ENCHANTED_FOREST_V2.model_dump() | {"name": "Big"})
    one, two = started(large, 1), started(large, 2)
    assert one.definition is not two.definition and one.cards is not two.cards
    interned.LARGEST_DEFINITION, interned.LARGEST_TABLE = largest  # small enough again
    monkeypatch.setattr(interned, "LIMIT", 1)
    first = started(ENCHANTED_FOREST_V1, 1)
    started(ENCHANTED_FOREST_V2, 1)  # pushes V1's copy out
    again = started(ENCHANTED_FOREST_V1, 2)
    assert again.definition is not first.definition and again.definition == first.definition
    assert AGG.shared_parts(AGG.initial()) == ()  # a state before MazeStarted shares nothing
