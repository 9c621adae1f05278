"""The five actions and waking a sleeper: what each needs, its check, and its effect."""

from __future__ import annotations

from services.labyrinth.commands import TakeAction
from services.labyrinth.emit import Emitter
from services.labyrinth.errors import (
    ACTION_LOCKED,
    ACTION_UNAVAILABLE,
    MEMBER_OUT_OF_PLAY,
    NOT_FLIPPABLE,
    UNKNOWN_CARD,
    UNKNOWN_PLAYER,
    LabyrinthError,
)
from services.labyrinth.events import (
    ActionAttempted,
    ActionsRemoved,
    CardsConsidered,
    DeadEndRemoved,
    ElementaryDrawn,
    PlayerWoke,
    RightPathsForged,
    ScoutRevealed,
)
from services.labyrinth.state import MazeState
from services.labyrinth.vocab import ACTION_STAT, LOCKED_ACTIONS, Action, CardKind

FORGED_RIGHT_PATHS = 2
ELEMENTARY_DRAW = 3
# v1: "If you have 4 players, roll 1D6 twice ... If you have 5 players, roll 1D4 once".
REMOVAL_DICE: dict[int, tuple[str, int]] = {4: ("1d6", 2), 5: ("1d4", 1)}
# A fair d6 needs more rolls than this with probability (1/3)^100; the bound only keeps a
# broken generator from looping (the removal then falls back to the printed reading).
MAX_REMOVAL_ROLLS = 100


def remove_actions(em: Emitter) -> None:
    """v1's removal for parties of 4 and 5, every roll recorded (rerolls included)."""
    s = em.state
    plan = REMOVAL_DICE.get(len(s.party))
    if plan is None or not s.maze.remove_actions_for_large_party:
        return
    die, count = plan
    reroll = s.maze.settings.action_removal_roll == "reroll"
    rolls = []
    removed: list[Action] = []
    for _ in range(count):
        for _ in range(MAX_REMOVAL_ROLLS):
            r = em.roll(die)
            rolls.append(r)
            # Faces 1-5 name the actions in printed order; a 6 names none.
            named = LOCKED_ACTIONS[r.total - 1] if r.total <= len(LOCKED_ACTIONS) else None
            if named is not None and named not in removed:
                removed.append(named)
                break
            # "reroll": a 6 or a repeat is rolled again, so the party always ends with
            # fewer actions than members; "as_printed": it removes nothing.
            if not reroll:
                break
    em.emit(ActionsRemoved(rolls=tuple(rolls), removed=tuple(removed)))


def _face_down(state: MazeState, slot: str) -> str:
    card = state.slots.get(slot)
    if card is None or card not in state.river:
        raise LabyrinthError(f"no river card {slot!r} in this deal", code=UNKNOWN_CARD)
    if card in state.face_up:
        raise LabyrinthError(f"river card {slot!r} is already face up", code=NOT_FLIPPABLE)
    return card


def _stuck_dead_end(state: MazeState, cmd: TakeAction) -> str:
    if cmd.cards:
        card = state.slots.get(cmd.cards[0])
        if card is None or card not in state.river:
            raise LabyrinthError(f"no river card {cmd.cards[0]!r}", code=UNKNOWN_CARD)
        if card not in state.stuck:
            raise LabyrinthError("Boost Morale removes a Dead End", code=ACTION_UNAVAILABLE)
        return card
    stuck = [c for c in state.river if c in state.stuck]
    if not stuck:
        raise LabyrinthError("no Dead End in the river to remove", code=ACTION_UNAVAILABLE)
    return stuck[0]


# The actions that point at river cards (Boost Morale may name the Dead End it removes).
_NAMES_CARDS = frozenset({Action.SCOUT_AHEAD, Action.CAREFUL_CONSIDERATION, Action.BOOST_MORALE})


def _unavailable(message: str) -> LabyrinthError:
    return LabyrinthError(message, code=ACTION_UNAVAILABLE)


def validate_action(state: MazeState, cmd: TakeAction) -> None:
    """Refuse an action that cannot be taken now (the caller checked turn and phase)."""
    action = cmd.action
    if cmd.target is not None and action is not Action.WAKE_PLAYER:
        raise _unavailable(f"{action.value} names no player to wake")
    if cmd.cards and action not in _NAMES_CARDS:
        # A client's slip (a card still selected) must not spend the turn's one action.
        raise _unavailable(f"{action.value} names no river card")
    if action is Action.WAKE_PLAYER:
        if cmd.target is None or cmd.target not in state.member_ids:
            raise LabyrinthError(f"unknown player {cmd.target!r}", code=UNKNOWN_PLAYER)
        if cmd.target in state.out_of_play:
            raise LabyrinthError(f"{cmd.target!r} is out of play", code=MEMBER_OUT_OF_PLAY)
        if cmd.target not in state.asleep:
            raise _unavailable(f"{cmd.target!r} is not asleep")
        return
    if action in state.unavailable:
        raise _unavailable(f"{action.value} was removed from this maze")
    if action in state.locked:
        raise LabyrinthError(
            f"{action.value} is locked until every action is used", code=ACTION_LOCKED
        )
    draw_left = len(state.deck) + len(state.discard)
    if action is Action.SCOUT_AHEAD:
        if len(cmd.cards) != 1:
            raise _unavailable("Scout Ahead names one face-down river card")
        _face_down(state, cmd.cards[0])
        if draw_left < 1:
            raise _unavailable("no card left to scout")
    elif action is Action.CAREFUL_CONSIDERATION:
        if len(cmd.cards) != 2 or cmd.cards[0] == cmd.cards[1]:
            raise _unavailable("Careful Consideration names two face-down river cards")
        for slot in cmd.cards:
            _face_down(state, slot)
    elif action is Action.ITS_ELEMENTARY:
        if draw_left < 1:
            raise _unavailable("no card left to draw")
    elif action is Action.BOOST_MORALE:
        if len(cmd.cards) > 1:
            raise _unavailable("Boost Morale names one Dead End at most")
        _stuck_dead_end(state, cmd)


def take_action(em: Emitter, cmd: TakeAction) -> None:
    """Roll the action's check vs the maze DC and, on a success, apply it."""
    s = em.state
    if cmd.action is Action.WAKE_PLAYER:
        assert cmd.target is not None
        em.emit(
            ActionAttempted(
                player=cmd.player,
                action=cmd.action,
                stat=None,
                roll=None,
                dc=s.maze.dc,
                success=True,
            )
        )
        em.emit(PlayerWoke(player=cmd.target, by=cmd.player))
        return
    stat = ACTION_STAT[cmd.action]
    roll = em.roll(s.member(cmd.player).profile.expression(stat))
    success = roll.total >= s.maze.dc
    em.emit(
        ActionAttempted(
            player=cmd.player,
            action=cmd.action,
            stat=stat,
            roll=roll,
            dc=s.maze.dc,
            success=success,
        )
    )
    if success:
        _apply(em, cmd)


def _apply(em: Emitter, cmd: TakeAction) -> None:
    s = em.state
    if cmd.action is Action.FORGE_A_PATH:
        paths = [c for c in s.pool if s.kind(c) is CardKind.RIGHT_PATH][:FORGED_RIGHT_PATHS]
        em.emit(RightPathsForged(cards=tuple(paths)))
    elif cmd.action is Action.SCOUT_AHEAD:
        river = s.slots[cmd.cards[0]]
        em.ensure_deck(1)
        top = em.state.deck[0]
        fresh = em.fresh_slot(set(em.state.slots))
        em.emit(
            ScoutRevealed(
                river_card=em.slot_card(river, cmd.cards[0]), deck_card=em.slot_card(top, fresh)
            )
        )
    elif cmd.action is Action.CAREFUL_CONSIDERATION:
        cards = tuple(em.slot_card(s.slots[slot], slot) for slot in cmd.cards)
        em.emit(CardsConsidered(cards=cards))
    elif cmd.action is Action.ITS_ELEMENTARY:
        em.ensure_deck(ELEMENTARY_DRAW)
        taken = set(em.state.slots)
        drawn = em.state.deck[:ELEMENTARY_DRAW]
        em.emit(ElementaryDrawn(cards=tuple(em.slot_card(c, em.fresh_slot(taken)) for c in drawn)))
    else:
        card = _stuck_dead_end(s, cmd)
        em.emit(DeadEndRemoved(card=em.slot_card(card, s.slot_of(card))))
        em.deal(1)
