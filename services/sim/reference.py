"""Drive the event-sourced engine (services/labyrinth) with a policy: the simulator's reference.

Slow (every command goes through decide/evolve) but it IS the rules; the conformance
test checks both simulator loops (`vector.py`, `game.py`) against it.
"""

from __future__ import annotations

from services.dice import Rng, SimRng
from services.labyrinth import (
    Action,
    AttemptDisarm,
    ChooseCard,
    Command,
    EncounterOutcome,
    FlipCard,
    MazeDefinition,
    MazeState,
    PartyMember,
    ResolveEncounter,
    RollInitiative,
    SkipDisarm,
    StartMaze,
    TakeAction,
    decide,
    evolve,
)
from services.labyrinth.events import DisarmAttempted, EncounterStarted, TrapRolled, TurnStarted
from services.sim.combat import CombatModel
from services.sim.game import OUTCOMES, GameResult
from services.sim.policies import Policy, TurnView

_UNIT = 1 << 24


def _uniform(rng: Rng) -> float:
    return rng.below(_UNIT) / _UNIT


def _action_command(state: MazeState, player: str, action: Action) -> TakeAction:
    down = [state.slot_of(c) for c in state.face_down]
    if action is Action.CAREFUL_CONSIDERATION:
        return TakeAction(player=player, action=action, cards=(down[0], down[1]))
    if action is Action.SCOUT_AHEAD:
        return TakeAction(player=player, action=action, cards=(down[0],))
    return TakeAction(player=player, action=action)


def play_engine(
    definition: MazeDefinition,
    party: tuple[PartyMember, ...],
    policy: Policy,
    combat: CombatModel,
    seed: str,
    max_turns: int = 500,
) -> GameResult:
    """One game through decide/evolve, the policy choosing for the table and the GM."""
    rng = SimRng(seed)
    win, flee, _ = combat.outcome_probabilities(definition, party)
    state = MazeState()
    turns = encounters = traps = disarmed = 0
    pending: list[Command] = [StartMaze(definition=definition, party=party), RollInitiative()]
    while True:
        if pending:
            command = pending.pop(0)
        elif state.phase == "encounter":
            x = _uniform(rng)
            outcome = (
                EncounterOutcome.MONSTER_DEFEATED
                if x < win
                else EncounterOutcome.PARTY_FLED
                if x < win + flee
                else EncounterOutcome.PARTY_DEFEATED
            )
            command = ResolveEncounter(outcome=outcome)
        else:
            command = _player_command(state, policy, rng)
        for event in decide(state, command, rng):
            if isinstance(event, TurnStarted):
                turns += 1
                if turns > max_turns:
                    limit = OUTCOMES.index("turn_limit")
                    return GameResult(limit, max_turns, encounters, traps, disarmed)
            elif isinstance(event, EncounterStarted):
                encounters += 1
            elif isinstance(event, TrapRolled):
                traps += 1
            elif isinstance(event, DisarmAttempted) and event.success:
                disarmed += 1
            state = evolve(state, event)
        if state.phase in ("escaped", "ended"):
            assert state.outcome is not None
            return GameResult(OUTCOMES.index(state.outcome), turns, encounters, traps, disarmed)


def _player_command(state: MazeState, policy: Policy, rng: Rng) -> Command:
    player = state.active
    assert player is not None
    if state.phase == "trap":
        return AttemptDisarm(player=player) if policy.disarm() else SkipDisarm(player=player)
    if state.phase == "choice":
        assert state.choice is not None
        options = state.choice.options
        kinds = [state.kind(state.slots[o]) for o in options]
        pick = policy.pick(kinds) if state.choice.kind == "resolve" else policy.bottom(kinds)
        return ChooseCard(player=player, card=options[pick])
    if not state.action_taken:
        free = state.available_actions - state.locked
        if free:
            view = TurnView(
                len(state.face_down),
                len(state.stuck),
                len(state.deck) + len(state.discard),
                frozenset(free),
            )
            action = policy.action(view)
            if action is not None:
                return _action_command(state, player, action)
    down = state.face_down
    return FlipCard(player=player, card=state.slot_of(down[rng.below(len(down))]))
