"""`decide(state, command, rng) -> events`: validate a command against the state, then act.

A refused command raises a LabyrinthError and produces no events. After the command
that ends a turn, the next turn is started and dealt here too, so the state always
waits for a player or the GM.
"""

from __future__ import annotations

from services.dice import TABLE_ROLL_LIMITS, Rng
from services.labyrinth import commands as cmd
from services.labyrinth.actions import remove_actions, take_action, validate_action
from services.labyrinth.cards import build_cards
from services.labyrinth.checks import check_live, check_waiting, refuse
from services.labyrinth.emit import Emitter
from services.labyrinth.encounters import resolve_encounter
from services.labyrinth.errors import (
    ACTION_ALREADY_TAKEN,
    ALREADY_STARTED,
    INITIATIVE_ALREADY_ROLLED,
    INVALID_DEFINITION,
    INVALID_ROLL,
    MEMBER_OUT_OF_PLAY,
    NO_ENCOUNTER,
    NO_PENDING_CHOICE,
    NO_PENDING_TRAP,
    NOT_FLIPPABLE,
    NOT_YOUR_TURN,
    PLAYER_ASLEEP,
    UNKNOWN_CARD,
    UNKNOWN_PLAYER,
)
from services.labyrinth.events import (
    CardChosen,
    CardRevealed,
    DiceRolled,
    ElementaryResolved,
    Event,
    InitiativeRoll,
    InitiativeRolled,
    MazeEnded,
    MazeStarted,
)
from services.labyrinth.overrides import override
from services.labyrinth.resolution import resolve
from services.labyrinth.state import MazeState
from services.labyrinth.traps import attempt_disarm, skip_disarm
from services.labyrinth.turns import start_next_turn


def _check_player(state: MazeState, player: str, phase: str) -> None:
    """Common checks for a player's command, in the order a table would notice them."""
    check_live(state)
    if player not in state.member_ids:
        raise refuse(UNKNOWN_PLAYER, f"unknown player {player!r}")
    if player in state.out_of_play:
        raise refuse(MEMBER_OUT_OF_PLAY, f"{player!r} is out of play")
    if player in state.asleep:
        raise refuse(PLAYER_ASLEEP, f"{player!r} is asleep")
    check_waiting(state, (phase,))
    if player != state.active:
        raise refuse(NOT_YOUR_TURN, f"it is {state.active!r}'s turn")
    if phase == "choice" and state.phase != "choice":
        raise refuse(NO_PENDING_CHOICE, "no action revealed cards to choose from")
    if phase == "trap" and state.phase != "trap":
        raise refuse(NO_PENDING_TRAP, "no trap waits to be disarmed")


def decide(state: MazeState, command: cmd.Command, rng: Rng) -> list[Event]:
    """The events a command produces, or a LabyrinthError with a stable code."""
    return decided(state, command, rng)[0]


def decided(state: MazeState, command: cmd.Command, rng: Rng) -> tuple[list[Event], MazeState]:
    """`decide`'s events and the state after them (the Emitter folds each as it goes)."""
    em = Emitter(state, rng)
    if isinstance(command, cmd.GmOverride):
        check_live(state)
        override(em, command)
        return em.events, em.state
    match command:
        case cmd.StartMaze():
            _start(em, command)
        case cmd.RollInitiative():
            check_live(state)
            if state.phase != "initiative":
                raise refuse(INITIATIVE_ALREADY_ROLLED, "initiative was rolled already")
            _roll_initiative(em)
        case cmd.TakeAction():
            _check_player(state, command.player, "turn")
            if state.action_taken:
                raise refuse(ACTION_ALREADY_TAKEN, "one action per turn")
            validate_action(state, command)
            take_action(em, command)
        case cmd.FlipCard():
            _check_player(state, command.player, "turn")
            card = state.slots.get(command.card)
            if card is None or card not in state.river:
                raise refuse(UNKNOWN_CARD, f"no river card {command.card!r} in this deal")
            if card in state.face_up:
                raise refuse(NOT_FLIPPABLE, "only a face-down river card can be flipped")
            em.emit(CardRevealed(player=command.player, card=em.slot_card(card, command.card)))
            resolve(em, card)
        case cmd.ChooseCard():
            _check_player(state, command.player, "choice")
            _choose(em, command)
        case cmd.AttemptDisarm():
            _check_player(state, command.player, "trap")
            attempt_disarm(em, command.player)
        case cmd.SkipDisarm():
            _check_player(state, command.player, "trap")
            skip_disarm(em, command.player)
        case cmd.ResolveEncounter():
            check_live(state)
            if state.phase != "encounter":
                raise refuse(NO_ENCOUNTER, "no encounter is running")
            resolve_encounter(em, command.outcome)
        case cmd.RollDice():
            check_live(state)
            _roll_dice(em, command)
        case cmd.EndMaze():
            check_live(state)
            em.emit(MazeEnded(reason=command.reason))
    return em.events, em.state


def _roll_dice(em: Emitter, command: cmd.RollDice) -> None:
    members = em.state.member_ids
    for member in (*([command.by] if command.by is not None else []), *command.to):
        if member not in members:
            raise refuse(UNKNOWN_PLAYER, f"unknown player {member!r}")
    if (command.visibility == "whisper") != bool(command.to):
        raise refuse(INVALID_ROLL, "a whisper names the members it goes to; other rolls none")
    em.emit(
        DiceRolled(
            by=command.by,
            label=command.label,
            visibility=command.visibility,
            to=command.to,
            roll=em.roll(command.expression, TABLE_ROLL_LIMITS),
        )
    )


def _start(em: Emitter, command: cmd.StartMaze) -> None:
    if em.state.phase != "not_started":
        raise refuse(ALREADY_STARTED, "the maze has started already")
    ids = [m.id for m in command.party]
    if not ids or len(set(ids)) != len(ids):
        raise refuse(INVALID_DEFINITION, "the party needs members with distinct ids")
    deck, pool = build_cards(command.definition)
    em.emit(
        MazeStarted(
            definition=command.definition,
            party=command.party,
            cards=deck + pool,
            deck=em.shuffled(tuple(c.id for c in deck)),
            pool=tuple(c.id for c in pool),
        )
    )


def _roll_initiative(em: Emitter) -> None:
    s = em.state
    rolls = tuple(InitiativeRoll(m.id, em.roll(m.profile.initiative)) for m in s.party)
    # Highest first; ties keep the party's listed order (the sort is stable).
    order = tuple(r.player for r in sorted(rolls, key=lambda r: -r.roll.total))
    em.emit(InitiativeRolled(rolls=rolls, order=order))
    remove_actions(em)
    start_next_turn(em)


def _choose(em: Emitter, command: cmd.ChooseCard) -> None:
    s = em.state
    assert s.choice is not None
    if command.card not in s.choice.options:
        raise refuse(UNKNOWN_CARD, f"{command.card!r} is not one of the revealed cards")
    card = s.slots[command.card]
    if s.choice.kind == "bottom":
        rest = tuple(s.slots[o] for o in s.choice.options if o != command.card)
        em.emit(ElementaryResolved(bottom=em.slot_card(card, command.card), top=em.shuffled(rest)))
        return
    em.emit(CardChosen(player=command.player, card=em.slot_card(card, command.card)))
    resolve(em, card)
