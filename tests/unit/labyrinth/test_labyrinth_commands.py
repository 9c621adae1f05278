"""Every refused command raises a LabyrinthError with a stable code and produces no events."""

from __future__ import annotations

from dataclasses import replace

import pytest

from services.dice import SimRng
from services.labyrinth import (
    ENCHANTED_FOREST_V1,
    ENCHANTED_FOREST_V2,
    Action,
    AttemptDisarm,
    ChooseCard,
    Command,
    EncounterOutcome,
    EndMaze,
    FlipCard,
    LabyrinthError,
    MazeState,
    ResolveEncounter,
    RollInitiative,
    SkipDisarm,
    StartMaze,
    TakeAction,
    decide,
    evolve,
)
from services.labyrinth.state import PendingChoice, PendingTrap
from tests.unit.labyrinth.play import face_down_slots, party, started


def refused(state: MazeState, command: Command) -> str:
    with pytest.raises(LabyrinthError) as info:
        decide(state, command, SimRng("x"))
    return info.value.code


def turn() -> MazeState:
    game, _ = started(ENCHANTED_FOREST_V1)
    return game.state


def test_commands_before_the_start_are_refused_as_not_started() -> None:
    assert refused(MazeState(), RollInitiative()) == "not_started"
    assert refused(MazeState(), FlipCard(player="p1", card="x")) == "not_started"


def test_starting_twice_or_with_duplicate_ids_is_refused() -> None:
    state = turn()
    assert refused(state, StartMaze(definition=ENCHANTED_FOREST_V1, party=party())) == (
        "already_started"
    )
    twins = party(1) * 2
    bad = StartMaze(definition=ENCHANTED_FOREST_V1, party=twins)
    assert refused(MazeState(), bad) == "invalid_definition"


def test_initiative_is_rolled_once() -> None:
    assert refused(turn(), RollInitiative()) == "initiative_already_rolled"


def test_a_player_command_before_initiative_waits_for_it() -> None:
    state = MazeState()
    for event in decide(
        state, StartMaze(definition=ENCHANTED_FOREST_V2, party=party()), SimRng("a")
    ):
        state = evolve(state, event)
    assert refused(state, FlipCard(player="p1", card="x")) == "initiative_pending"


def test_only_the_active_player_acts() -> None:
    state = turn()
    other = next(p for p in state.order if p != state.active)
    assert refused(state, FlipCard(player=other, card=face_down_slots(state)[0])) == (
        "not_your_turn"
    )
    assert refused(state, FlipCard(player="nobody", card="x")) == "unknown_player"


def test_flipping_an_unknown_or_face_up_card_is_refused() -> None:
    state = turn()
    assert state.active is not None
    assert refused(state, FlipCard(player=state.active, card="s-nope")) == "unknown_card"
    card = state.river[0]
    up = replace(state, face_up=state.face_up | {card}, stuck=state.stuck | {card})
    slot = state.slot_of(card)
    assert refused(up, FlipCard(player=state.active, card=slot)) == "not_flippable"


def test_a_locked_or_removed_action_is_refused() -> None:
    state = turn()
    assert state.active is not None
    forge = TakeAction(player=state.active, action=Action.FORGE_A_PATH)
    assert refused(replace(state, locked=frozenset({Action.FORGE_A_PATH})), forge) == (
        "action_locked"
    )
    assert refused(replace(state, unavailable=frozenset({Action.FORGE_A_PATH})), forge) == (
        "action_unavailable"
    )
    assert refused(replace(state, action_taken=True), forge) == "action_already_taken"


def test_actions_whose_conditions_are_not_met_are_unavailable() -> None:
    state = turn()
    player = state.active
    assert player is not None
    boost = TakeAction(player=player, action=Action.BOOST_MORALE)
    assert refused(state, boost) == "action_unavailable"
    careful = TakeAction(player=player, action=Action.CAREFUL_CONSIDERATION, cards=("a",))
    assert refused(state, careful) == "action_unavailable"
    wake = TakeAction(player=player, action=Action.WAKE_PLAYER, target="p2")
    assert refused(state, wake) == "action_unavailable"
    scout = TakeAction(player=player, action=Action.SCOUT_AHEAD, cards=("nope",))
    assert refused(state, scout) == "unknown_card"


@pytest.mark.parametrize(
    ("action", "cards", "target", "why"),
    [
        (Action.FORGE_A_PATH, 1, None, "forge_a_path names no river card"),
        (Action.ITS_ELEMENTARY, 3, None, "its_elementary names no river card"),
        (Action.WAKE_PLAYER, 1, "p2", "wake_player names no river card"),
        (Action.BOOST_MORALE, 2, None, "Boost Morale names one Dead End at most"),
        (Action.FORGE_A_PATH, 0, "p2", "forge_a_path names no player to wake"),
        (Action.SCOUT_AHEAD, 1, "p2", "scout_ahead names no player to wake"),
    ],
)
def test_an_action_naming_cards_or_a_sleeper_it_does_not_take_is_refused(
    action: Action, cards: int, target: str | None, why: str
) -> None:
    """A card still selected in a client must not spend the turn's one action on
    another: refused for what it names (the message says so, not a later condition),
    and the same action without it is taken."""
    state = turn()
    player = state.active
    assert player is not None
    slots = tuple(face_down_slots(state)[:cards])
    assert len(slots) == cards
    command = TakeAction(player=player, action=action, cards=slots, target=target)
    with pytest.raises(LabyrinthError) as info:
        decide(state, command, SimRng("x"))
    assert (info.value.code, info.value.message) == ("action_unavailable", why)
    if action is Action.FORGE_A_PATH or action is Action.ITS_ELEMENTARY:
        plain = TakeAction(player=player, action=action)
        assert decide(state, plain, SimRng("x"))  # taken: the refusal was the cards'


def test_a_sleeping_player_cannot_act() -> None:
    state = turn()
    assert state.active is not None
    asleep = replace(state, asleep={state.active: 2})
    assert refused(asleep, FlipCard(player=state.active, card="x")) == "player_asleep"


def test_pending_choices_traps_and_encounters_block_other_commands() -> None:
    state = turn()
    player = state.active
    assert player is not None
    slot = face_down_slots(state)[0]
    choosing = replace(state, phase="choice", choice=PendingChoice("resolve", (slot,)))
    assert refused(choosing, FlipCard(player=player, card=slot)) == "choice_pending"
    assert refused(choosing, ChooseCard(player=player, card="other")) == "unknown_card"
    assert refused(state, ChooseCard(player=player, card=slot)) == "no_pending_choice"
    entry = ENCHANTED_FOREST_V1.trap_table.entries[0]
    trapped = replace(state, phase="trap", trap=PendingTrap(state.river[0], entry, 12))
    assert refused(trapped, FlipCard(player=player, card=slot)) == "trap_pending"
    assert refused(state, AttemptDisarm(player=player)) == "no_pending_trap"
    assert refused(state, SkipDisarm(player=player)) == "no_pending_trap"
    fighting = replace(state, phase="encounter")
    assert refused(fighting, FlipCard(player=player, card=slot)) == "encounter_pending"
    outcome = ResolveEncounter(outcome=EncounterOutcome.PARTY_FLED)
    assert refused(state, outcome) == "no_encounter"


def test_nothing_is_accepted_after_the_maze_ended() -> None:
    state = turn()
    for event in decide(state, EndMaze(), SimRng("e")):
        state = evolve(state, event)
    assert state.phase == "ended"
    assert refused(state, EndMaze()) == "maze_ended"
    assert refused(state, FlipCard(player="p1", card="x")) == "maze_ended"
    assert refused(state, RollInitiative()) == "maze_ended"
