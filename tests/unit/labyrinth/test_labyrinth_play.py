"""Full mazes played to escape through commands alone, in each rule variant."""

from __future__ import annotations

import pytest

from services.labyrinth import (
    ENCHANTED_FOREST_V1,
    ENCHANTED_FOREST_V2,
    Action,
    AttemptDisarm,
    ChooseCard,
    Command,
    EncounterOutcome,
    FlipCard,
    MazeDefinition,
    MazeState,
    ResolveEncounter,
    TakeAction,
    dnd5e_profile,
    events,
)
from services.labyrinth.profiles import PartyMember, Stat
from services.labyrinth.vocab import CardKind
from tests.unit.labyrinth.play import Game, face_down_slots, legal_commands

HEROES = tuple(
    PartyMember(id=f"p{i}", name=name, profile=dnd5e_profile({s: 4 for s in Stat}))
    for i, name in enumerate(("Ash", "Bryn", "Cole"), 1)
)


def policy(state: MazeState) -> Command:
    """A simple table: act when free, prefer Right Paths, always disarm, run from monsters."""
    if state.phase == "encounter":
        return ResolveEncounter(outcome=EncounterOutcome.PARTY_FLED)
    player = state.active
    assert player is not None
    if state.phase == "trap":
        return AttemptDisarm(player=player)
    if state.phase == "choice":
        assert state.choice is not None
        options = state.choice.options
        paths = [o for o in options if state.kind(state.slots[o]) is CardKind.RIGHT_PATH]
        if state.choice.kind == "bottom":
            others = [o for o in options if o not in paths]
            return ChooseCard(player=player, card=(others or options)[0])
        return ChooseCard(player=player, card=(paths or list(options))[0])
    if state.asleep and not state.action_taken:
        return TakeAction(player=player, action=Action.WAKE_PLAYER, target=next(iter(state.asleep)))
    down = face_down_slots(state)
    careful_free = Action.CAREFUL_CONSIDERATION not in state.locked
    if not state.action_taken and len(down) >= 2 and careful_free:
        return TakeAction(
            player=player, action=Action.CAREFUL_CONSIDERATION, cards=(down[0], down[1])
        )
    if not state.action_taken and Action.FORGE_A_PATH not in state.locked:
        return TakeAction(player=player, action=Action.FORGE_A_PATH)
    return FlipCard(player=player, card=down[0])


@pytest.mark.parametrize("definition", [ENCHANTED_FOREST_V1, ENCHANTED_FOREST_V2])
def test_a_party_plays_the_enchanted_forest_to_escape(definition: MazeDefinition) -> None:
    from services.dice import seeded_rng
    from services.labyrinth import RollInitiative, StartMaze

    game = Game()
    rng = seeded_rng(f"forest-{definition.variant}")
    game.do(StartMaze(definition=definition, party=HEROES), rng)
    game.do(RollInitiative(), rng)
    for _ in range(500):
        if game.state.phase == "escaped":
            break
        command = policy(game.state)
        assert command in legal_commands(game.state) or isinstance(command, TakeAction)
        game.do(command, rng)
    assert isinstance(game.events[-1], events.MazeEscaped)
    assert game.events[-1].reason == "right_paths"
    assert game.state.right_paths == 5
    assert any(isinstance(e, events.ActionAttempted) for e in game.events)
