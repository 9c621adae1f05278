"""Helpers for labyrinth tests: start a maze, apply commands, list legal commands, rig dice."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations

from services.dice import Rng, SimRng
from services.labyrinth import (
    Action,
    AttemptDisarm,
    CardKind,
    ChooseCard,
    Command,
    EncounterOutcome,
    Event,
    FlipCard,
    MazeDefinition,
    MazeState,
    MoveRiverCard,
    OverrideActions,
    OverrideMember,
    OverrideScore,
    OverrideTrap,
    OverrideTurn,
    PartyMember,
    ResolveEncounter,
    RevealRiverCard,
    RollInitiative,
    SkipDisarm,
    StartMaze,
    TakeAction,
    decide,
    evolve,
)
from services.labyrinth.commands import RiverDestination
from services.labyrinth.vocab import LOCKED_ACTIONS


class RiggedRng:
    """Dice faces from a queue (1-based), then all-high or all-low; slot ids count up."""

    def __init__(self, *faces: int, high: bool = True) -> None:
        self.faces = list(faces)
        self.high = high
        self.counter = 0

    def below(self, n: int) -> int:
        if n == 1 << 24:
            self.counter += 1
            return self.counter
        if self.faces:
            return min(self.faces.pop(0), n) - 1
        return n - 1 if self.high else 0


def party(n: int = 3) -> tuple[PartyMember, ...]:
    return tuple(PartyMember(id=f"p{i}", name=f"Runner {i}") for i in range(1, n + 1))


@dataclass
class Game:
    """A maze being played: its state and every event so far."""

    state: MazeState = field(default_factory=MazeState)
    events: list[Event] = field(default_factory=list)

    def do(self, command: Command, rng: Rng) -> list[Event]:
        new = decide(self.state, command, rng)
        for event in new:
            self.state = evolve(self.state, event)
        self.events.extend(new)
        return new


def started(definition: MazeDefinition, members: int = 3, seed: str = "s") -> tuple[Game, Rng]:
    game, rng = Game(), SimRng(seed)
    game.do(StartMaze(definition=definition, party=party(members)), rng)
    game.do(RollInitiative(), rng)
    return game, rng


def apply(state: MazeState, evs: list[Event]) -> MazeState:
    for e in evs:
        state = evolve(state, e)
    return state


def with_river(state: MazeState, kinds: list[CardKind]) -> MazeState:
    """Rearrange the deck so the river's face-down cards are of these kinds (slots s0, s1...)."""
    river: list[str] = []
    rest = list(state.deck + state.river)
    for kind in kinds:
        card = next(c for c in rest if state.kind(c) is kind)
        rest.remove(card)
        river.append(card)
    slots = {f"s{i}": c for i, c in enumerate(river)}
    return replace(state, river=tuple(river), deck=tuple(rest), slots=slots)


def slot_of(state: MazeState, card: str) -> str:
    return state.slot_of(card)


def face_down_slots(state: MazeState) -> list[str]:
    return [state.slot_of(c) for c in state.face_down]


def legal_commands(state: MazeState) -> list[Command]:
    """Every command the current state accepts (with one choice of optional arguments)."""
    if state.phase == "initiative":
        return [RollInitiative()]
    if state.phase == "encounter":
        return [ResolveEncounter(outcome=o) for o in EncounterOutcome]
    player = state.active
    if player is None:
        return []
    if state.phase == "choice":
        assert state.choice is not None
        return [ChooseCard(player=player, card=o) for o in state.choice.options]
    if state.phase == "trap":
        return [AttemptDisarm(player=player), SkipDisarm(player=player)]
    if state.phase != "turn":
        return []
    down = face_down_slots(state)
    out: list[Command] = [FlipCard(player=player, card=s) for s in down]
    if state.action_taken:
        return out
    drawable = len(state.deck) + len(state.discard)
    for action in LOCKED_ACTIONS:
        if action in state.locked or action in state.unavailable:
            continue
        if action is Action.SCOUT_AHEAD and drawable:
            out += [TakeAction(player=player, action=action, cards=(s,)) for s in down]
        elif action is Action.CAREFUL_CONSIDERATION:
            out += [
                TakeAction(player=player, action=action, cards=p) for p in combinations(down, 2)
            ]
        elif (
            (action is Action.BOOST_MORALE and state.stuck)
            or (action is Action.ITS_ELEMENTARY and drawable)
            or action is Action.FORGE_A_PATH
        ):
            out.append(TakeAction(player=player, action=action))
    sleepers = [p for p in state.asleep if p not in state.out_of_play]
    out += [TakeAction(player=player, action=Action.WAKE_PLAYER, target=p) for p in sleepers]
    return out


RULING = "table ruling"
DESTINATIONS: tuple[RiverDestination, ...] = (
    "discard",
    "game",
    "deck_top",
    "deck_bottom",
    "deck_shuffled",
)


def override_candidates(state: MazeState) -> list[Command]:
    """A spread of GM overrides for this state: most accepted, some refused by the engine."""
    out: list[Command] = []
    for m in state.member_ids:
        out += [
            OverrideMember(member=m, asleep_turns=2, reason=RULING),
            OverrideMember(member=m, asleep_turns=0, reason=RULING),
            OverrideMember(member=m, in_play=False, reason=RULING),
            OverrideMember(member=m, in_play=True, asleep_turns=0, reason=RULING),
            OverrideTurn(next_player=m, reason=RULING),
        ]
    out.append(OverrideTurn(reason=RULING))
    for i, card in enumerate(state.river):
        slot = state.slot_of(card)
        out.append(RevealRiverCard(card=slot, reason=RULING))
        to = DESTINATIONS[(i + state.round) % len(DESTINATIONS)]
        out.append(MoveRiverCard(card=slot, to=to, refill=i % 2 == 0, reason=RULING))
    out += [
        OverrideScore(right_paths=state.right_paths + 1, reason=RULING),
        OverrideScore(monster_points=1, reason=RULING),
        OverrideScore(right_paths=0, monster_points=0, reason=RULING),
        OverrideActions(locked=(), action_taken=False, reason=RULING),
        OverrideActions(locked=LOCKED_ACTIONS[:2], removed=LOCKED_ACTIONS[4:], reason=RULING),
        OverrideTrap(row=0, reason=RULING),
        OverrideTrap(row=2, dc=9, reason=RULING),
    ]
    return out


def conserved(state: MazeState) -> bool:
    """Every card id is in exactly one zone."""
    seen = [c for zone in state.zones() for c in zone]
    return sorted(seen) == sorted(state.cards)


def replay(events: list[Event]) -> MazeState:
    state = MazeState()
    for event in events:
        state = evolve(state, event)
    return state
