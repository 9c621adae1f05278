"""GM overrides: when the table rules otherwise or a client mistake must be fixed.

Each override is checked against the state like any command, then recorded as an event
carrying the values it sets and the GM's reason (evolve copies them; nothing is re-derived
on replay). What follows from an override follows from the usual rules: a member taken
out of play on their turn passes the turn, a Right Path count at the goal escapes.
"""

from __future__ import annotations

import re
from typing import assert_never

from services.labyrinth import commands as cmd
from services.labyrinth.checks import check_waiting, refuse
from services.labyrinth.emit import RIVER_SIZE, Emitter
from services.labyrinth.errors import (
    INITIATIVE_PENDING,
    INVALID_OVERRIDE,
    LAST_FACE_DOWN_CARD,
    MEMBER_OUT_OF_PLAY,
    NO_MEMBER_IN_PLAY,
    NO_PENDING_TRAP,
    NOT_FLIPPABLE,
    PLAYER_ASLEEP,
    REASON_NAMES_A_CARD,
    UNKNOWN_CARD,
    UNKNOWN_PLAYER,
    LabyrinthError,
)
from services.labyrinth.events import (
    ActionsOverridden,
    CardRevealedByGm,
    MazeEscaped,
    MemberOverridden,
    RiverCardMovedByGm,
    ScoreOverridden,
    TrapOverridden,
    TurnOverridden,
)
from services.labyrinth.state import MazeState
from services.labyrinth.turns import finish_turn
from services.labyrinth.vocab import LOCKED_ACTIONS, Action

MAX_REASON = 200
MAX_SLEEP_TURNS = 20
MAX_POINTS = 200  # Right Paths; Monster points stay below the encounter threshold
MAX_TRAP_DC = 100
SUITS = frozenset("♠♥♣♦")
# The phases in which someone's turn is running (an encounter ends it when resolved).
TURN_PHASES = ("turn", "choice", "trap")


def _invalid(message: str) -> LabyrinthError:
    return refuse(INVALID_OVERRIDE, message)


def check_reason(state: MazeState, reason: str) -> None:
    """A reason is shown to the table verbatim: it must not name a card's identity."""
    if not reason.strip() or len(reason) > MAX_REASON:
        raise _invalid(f"give a reason of 1 to {MAX_REASON} characters")
    words = set(re.findall(r"\w+", reason))
    named = any(card in words for card in state.cards) or (
        not SUITS.isdisjoint(reason)
        and any(c.label in reason for c in state.cards.values() if not SUITS.isdisjoint(c.label))
    )
    if named:
        raise refuse(
            REASON_NAMES_A_CARD,
            "the reason is shown to the table: name a card by its slot id, "
            "never by its internal id or playing-card label",
        )


def override(em: Emitter, command: cmd.GmOverride) -> None:
    """Check a GM override (the maze is live) and record it with what follows from it."""
    state = em.state
    if state.phase == "initiative":
        raise refuse(INITIATIVE_PENDING, "roll initiative first")
    check_reason(state, command.reason)
    match command:
        case cmd.OverrideMember():
            _member(em, command)
        case cmd.OverrideTurn():
            _turn(em, command)
        case cmd.RevealRiverCard():
            _reveal(em, command)
        case cmd.MoveRiverCard():
            _move(em, command)
        case cmd.OverrideScore():
            _score(em, command)
        case cmd.OverrideActions():
            _actions(em, command)
        case cmd.OverrideTrap():
            _trap(em, command)
        case _:
            assert_never(command)


def _pass_turn(em: Emitter, next_player: str | None, reason: str) -> None:
    """End the running turn as any turn ends (nothing pending resolves) and start the next."""
    active = em.state.active
    assert active is not None
    em.emit(TurnOverridden(player=active, next_player=next_player, reason=reason))
    finish_turn(em)


def _member(em: Emitter, c: cmd.OverrideMember) -> None:
    s = em.state
    if c.member not in s.member_ids:
        raise refuse(UNKNOWN_PLAYER, f"unknown player {c.member!r}")
    if c.asleep_turns is None and c.in_play is None:
        raise _invalid("give asleep_turns and/or in_play")
    if c.asleep_turns is not None and not 0 <= c.asleep_turns <= MAX_SLEEP_TURNS:
        raise _invalid(f"asleep_turns is 0 (awake) to {MAX_SLEEP_TURNS}")
    asleep = s.asleep.get(c.member, 0) if c.asleep_turns is None else c.asleep_turns
    in_play = c.member not in s.out_of_play if c.in_play is None else c.in_play
    if not in_play and not [m for m in s.in_play if m != c.member]:
        raise refuse(NO_MEMBER_IN_PLAY, "at least one member must stay in play")
    em.emit(
        MemberOverridden(member=c.member, asleep_turns=asleep, in_play=in_play, reason=c.reason)
    )
    if c.member == s.active and s.phase in TURN_PHASES and (asleep > 0 or not in_play):
        _pass_turn(em, None, c.reason)


def _turn(em: Emitter, c: cmd.OverrideTurn) -> None:
    s = em.state
    check_waiting(s, TURN_PHASES)
    nxt = c.next_player
    if nxt is not None:
        if nxt not in s.member_ids:
            raise refuse(UNKNOWN_PLAYER, f"unknown player {nxt!r}")
        if nxt in s.out_of_play:
            raise refuse(MEMBER_OUT_OF_PLAY, f"{nxt!r} is out of play")
        if nxt in s.asleep:
            raise refuse(PLAYER_ASLEEP, f"{nxt!r} is asleep (wake them with OverrideMember)")
    _pass_turn(em, nxt, c.reason)


def _river_card(s: MazeState, slot: str) -> str:
    # Card overrides wait for the table's decision point: nothing pending on the river.
    check_waiting(s, ("turn",))
    card = s.slots.get(slot)
    if card is None or card not in s.river:
        raise refuse(UNKNOWN_CARD, f"no river card {slot!r} in this deal")
    return card


def _keep_a_card_to_flip(em: Emitter) -> None:
    # Refusing after emitting is fine: decide's events are discarded with the error.
    if not em.state.face_down:
        raise refuse(
            LAST_FACE_DOWN_CARD,
            "the active player needs a face-down river card to flip (refill the river)",
        )


def _reveal(em: Emitter, c: cmd.RevealRiverCard) -> None:
    card = _river_card(em.state, c.card)
    if card in em.state.face_up:
        raise refuse(NOT_FLIPPABLE, f"river card {c.card!r} is already face up")
    em.emit(CardRevealedByGm(card=em.slot_card(card, c.card), reason=c.reason))
    _keep_a_card_to_flip(em)


def _move(em: Emitter, c: cmd.MoveRiverCard) -> None:
    s = em.state
    card = _river_card(s, c.card)
    deck = em.shuffled((*s.deck, card)) if c.to == "deck_shuffled" else None
    em.emit(
        RiverCardMovedByGm(
            card=em.slot_card(card, c.card),
            face_up=card in s.face_up,
            to=c.to,
            reason=c.reason,
            deck=deck,
        )
    )
    if c.refill and len(em.state.river) < RIVER_SIZE:
        em.fill_river()
    _keep_a_card_to_flip(em)


def _score(em: Emitter, c: cmd.OverrideScore) -> None:
    s = em.state
    if c.right_paths is None and c.monster_points is None:
        raise _invalid("give right_paths and/or monster_points")
    paths = s.right_paths if c.right_paths is None else c.right_paths
    points = s.monster_points if c.monster_points is None else c.monster_points
    if not 0 <= paths <= MAX_POINTS:
        raise _invalid(f"right_paths is 0 to {MAX_POINTS}")
    threshold = s.maze.settings.monster_points_for_encounter
    if not 0 <= points < threshold:
        raise _invalid(
            f"monster_points is 0 to {threshold - 1}: an encounter starts when a Monster "
            "card is revealed"
        )
    em.emit(ScoreOverridden(right_paths=paths, monster_points=points, reason=c.reason))
    goal = s.maze.victory.right_paths
    if goal is not None and paths >= goal:
        em.emit(MazeEscaped(reason="right_paths"))


def _locked_only(
    actions: tuple[Action, ...] | None, current: frozenset[Action]
) -> tuple[Action, ...]:
    chosen = current if actions is None else frozenset(actions)
    if not chosen <= frozenset(LOCKED_ACTIONS):
        raise _invalid("only the five table actions can be locked or removed")
    return tuple(a for a in LOCKED_ACTIONS if a in chosen)


def _actions(em: Emitter, c: cmd.OverrideActions) -> None:
    s = em.state
    if c.locked is None and c.removed is None and c.action_taken is None:
        raise _invalid("give locked, removed and/or action_taken")
    em.emit(
        ActionsOverridden(
            locked=_locked_only(c.locked, s.locked),
            removed=_locked_only(c.removed, s.unavailable),
            action_taken=s.action_taken if c.action_taken is None else c.action_taken,
            reason=c.reason,
        )
    )


def _trap(em: Emitter, c: cmd.OverrideTrap) -> None:
    s = em.state
    if s.trap is None:
        check_waiting(s, ("trap",))
        raise refuse(NO_PENDING_TRAP, "no trap waits to be disarmed")
    if c.row is None and c.dc is None:
        raise _invalid("give row and/or dc")
    entries = s.maze.trap_table.entries
    if c.row is not None and not 0 <= c.row < len(entries):
        raise _invalid(f"row is 0 to {len(entries) - 1} (the maze's trap table, in order)")
    entry = s.trap.entry if c.row is None else entries[c.row]
    if c.dc is not None:
        dc = c.dc
    elif c.row is not None:
        dc = s.maze.dc + entry.dc_offset
    else:
        dc = s.trap.dc
    if not 1 <= dc <= MAX_TRAP_DC:
        raise _invalid(f"a trap's DC is 1 to {MAX_TRAP_DC}")
    em.emit(TrapOverridden(entry=entry, dc=dc, reason=c.reason))
