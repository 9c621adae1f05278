"""`evolve(state, event) -> state`: pure and total over every event type."""

from __future__ import annotations

import dataclasses
from dataclasses import fields
from typing import Any, assert_never

from services.labyrinth import events as ev
from services.labyrinth import interned
from services.labyrinth.state import MazeState, PendingChoice, PendingTrap

_FIELDS = frozenset(f.name for f in fields(MazeState))
# MazeState is a plain frozen dataclass: __init__ sets each field from its argument into
# the instance's __dict__ and runs nothing after (no __post_init__).
_PLAIN = not hasattr(MazeState, "__post_init__")
_set_attribute = object.__setattr__


def replace(state: MazeState, **changes: Any) -> MazeState:
    """`dataclasses.replace(state, **changes)`, without calling __init__ with every field:
    the state's fields, copied, then the changes (each evolve step replaces a few of some
    thirty fields, and dataclasses.replace was most of a command's CPU)."""
    if not _FIELDS.issuperset(changes):  # checked without building a set
        unknown = changes.keys() - _FIELDS
        raise TypeError(f"MazeState has no field {sorted(unknown)[0]!r}")
    held: dict[str, Any] | None = getattr(state, "__dict__", None)
    if not _PLAIN or type(state) is not MazeState or held is None or len(held) != len(_FIELDS):
        return dataclasses.replace(state, **changes)  # not the plain state this copy assumes
    values = held.copy()  # a dict's copy is a block copy; an update inserts key by key
    values.update(changes)
    new = object.__new__(MazeState)
    _set_attribute(new, "__dict__", values)  # (a frozen class's own __setattr__ refuses)
    return new


def _without(zone: tuple[str, ...], cards: tuple[str, ...] | frozenset[str]) -> tuple[str, ...]:
    gone = set(cards)
    return tuple([c for c in zone if c not in gone])  # a list is built faster than a generator runs


def _drop_slots(slots: dict[str, str], cards: tuple[str, ...]) -> dict[str, str]:
    gone = set(cards)
    return {s: c for s, c in slots.items() if c not in gone}


def _leave_river(state: MazeState, cards: tuple[str, ...], to: str | None) -> MazeState:
    """Cards leave the river (or held) for the discard pile, the game, or (None) the caller."""
    changes: dict[str, object] = {
        "river": _without(state.river, cards),
        "held": _without(state.held, cards),
        "face_up": state.face_up - set(cards),
        "stuck": state.stuck - set(cards),
        "slots": _drop_slots(state.slots, cards),
    }
    if to == "discard":
        changes["discard"] = state.discard + cards
    elif to is not None:
        changes["removed"] = state.removed + cards
    return replace(state, **changes)


def _move_from_river(state: MazeState, event: ev.RiverCardMovedByGm) -> MazeState:
    card = event.card.card
    if event.to in ("discard", "game"):
        return _leave_river(state, (card,), event.to)
    off = _leave_river(state, (card,), None)
    if event.to == "deck_top":
        return replace(off, deck=(card, *off.deck))
    if event.to == "deck_bottom":
        return replace(off, deck=(*off.deck, card))
    assert event.deck is not None
    return replace(off, deck=event.deck)


def _member(state: MazeState, event: ev.MemberOverridden) -> MazeState:
    asleep = {p: n for p, n in state.asleep.items() if p != event.member}
    if event.asleep_turns > 0:
        asleep[event.member] = event.asleep_turns
    out = state.out_of_play - {event.member}
    if not event.in_play:
        out = out | {event.member}
    return replace(state, asleep=asleep, out_of_play=out)


def _turn(state: MazeState, event: ev.TurnOverridden) -> MazeState:
    # The next turn search starts after `turn_index`, so point it just before the pick.
    index = state.turn_index
    if event.next_player is not None:
        index = state.order.index(event.next_player) - 1
    return replace(state, phase="turn", choice=None, trap=None, turn_index=index)


def evolve(state: MazeState, event: ev.Event) -> MazeState:
    """The state after `event`; never rolls, never fails on a well-formed history."""
    match event:
        # Each class pattern is one isinstance check, tried in order: the events of every
        # turn come first (a flip is about five events, each evolved once).
        case ev.CardRevealed():
            return replace(state, face_up=state.face_up | {event.card.card})
        case ev.TurnEnded():
            return _leave_river(replace(state, active=None), event.discarded, "discard")
        case ev.RoundEnded():
            return replace(state, round=event.round + 1, turn_index=-1)
        case ev.MazeStarted():
            return MazeState(
                phase="initiative",
                definition=interned.definition(event.definition),
                party=event.party,
                cards=interned.card_table(event.cards),
                deck=event.deck,
                pool=event.pool,
            )
        case ev.InitiativeRolled():
            return replace(
                state,
                initiative={r.player: r.roll.total for r in event.rolls},
                order=event.order,
                round=1,
                turn_index=-1,
            )
        case ev.ActionsRemoved():
            return replace(state, unavailable=frozenset(event.removed))
        case ev.TurnStarted():
            return replace(
                state,
                phase="turn",
                active=event.player,
                turn_index=state.order.index(event.player),
                action_taken=False,
                pending_slowing=0,
            )
        case ev.TurnSkipped():
            asleep = dict(state.asleep)
            asleep[event.player] = event.asleep_turns_left
            return replace(state, asleep=asleep, turn_index=state.order.index(event.player))
        case ev.DeckReshuffled():
            return replace(state, deck=state.deck + event.order, discard=())
        case ev.RiverDealt():
            return replace(
                state,
                deck=_without(state.deck, event.dealt),
                river=state.river + event.dealt,
                slots={s.slot: s.card for s in event.slots},
            )
        case ev.ActionAttempted():
            locked = state.locked
            if event.action in state.available_actions and (
                event.success or state.maze.settings.failed_action_locks
            ):
                locked = locked | {event.action}
            return replace(state, action_taken=True, locked=locked)
        case ev.RightPathsForged():
            return replace(
                state,
                pool=_without(state.pool, event.cards),
                discard=state.discard + event.cards,
            )
        case ev.ScoutRevealed():
            deck_card = event.deck_card
            return replace(
                state,
                deck=_without(state.deck, (deck_card.card,)),
                river=(*state.river, deck_card.card),
                face_up=state.face_up | {deck_card.card, event.river_card.card},
                slots={**state.slots, deck_card.slot: deck_card.card},
                phase="choice",
                choice=PendingChoice("resolve", (event.river_card.slot, deck_card.slot)),
            )
        case ev.CardsConsidered():
            return replace(
                state,
                face_up=state.face_up | {c.card for c in event.cards},
                phase="choice",
                choice=PendingChoice("resolve", tuple(c.slot for c in event.cards)),
            )
        case ev.ElementaryDrawn():
            cards = tuple(c.card for c in event.cards)
            return replace(
                state,
                deck=_without(state.deck, cards),
                held=state.held + cards,
                slots={**state.slots, **{c.slot: c.card for c in event.cards}},
                phase="choice",
                choice=PendingChoice("bottom", tuple(c.slot for c in event.cards)),
            )
        case ev.ElementaryResolved():
            moved = (event.bottom.card, *event.top)
            return replace(
                state,
                held=_without(state.held, moved),
                deck=event.top + _without(state.deck, moved) + (event.bottom.card,),
                slots=_drop_slots(state.slots, moved),
                phase="turn",
                choice=None,
            )
        case ev.DeadEndRemoved():
            return _leave_river(state, (event.card.card,), "game")
        case ev.CardChosen():
            return replace(state, phase="turn", choice=None)
        case ev.RightPathScored():
            return replace(state, right_paths=event.points)
        case ev.DeadEndStuck():
            return replace(state, stuck=state.stuck | {event.card.card})
        case ev.DeadEndsCleared():
            return _leave_river(state, tuple(c.card for c in event.cards), event.destination)
        case ev.MonsterCardAdded():
            pool = _without(state.pool, (event.card,))
            if event.destination == "discard":
                return replace(state, pool=pool, discard=(*state.discard, event.card))
            if event.destination == "deck_top":
                return replace(state, pool=pool, deck=(event.card, *state.deck))
            assert event.deck is not None
            return replace(state, pool=pool, deck=event.deck)
        case ev.MonsterPointScored():
            return replace(state, monster_points=event.points)
        case ev.EncounterStarted():
            return replace(
                state, phase="encounter", monster=event.monster, combat_order=event.order
            )
        case ev.EncounterResolved():
            return replace(
                state,
                phase="turn",
                monster=None,
                combat_order=(),
                monster_points=event.monster_points,
            )
        case ev.MonsterCardRemoved():
            off_deck = replace(state, deck=_without(state.deck, (event.card,)))
            return _leave_river(off_deck, (event.card,), "game")
        case ev.TrapRolled():
            return replace(
                state, phase="trap", trap=PendingTrap(event.card.card, event.entry, event.dc)
            )
        case ev.DisarmAttempted():
            return replace(state, phase="turn", trap=None)
        case ev.TrapSprung():
            slowing = state.pending_slowing + (1 if event.entry.effect == "slowing" else 0)
            return replace(state, phase="turn", trap=None, pending_slowing=slowing)
        case ev.PlayerFellAsleep():
            return replace(state, asleep={**state.asleep, event.player: event.turns})
        case ev.PlayerWoke():
            return replace(
                state, asleep={p: n for p, n in state.asleep.items() if p != event.player}
            )
        case ev.DeadEndPlaced():
            card = event.card
            return replace(
                state,
                pool=_without(state.pool, (card.card,)),
                river=(*state.river, card.card),
                face_up=state.face_up | {card.card},
                stuck=state.stuck | {card.card},
                slots={**state.slots, card.slot: card.card},
                pending_slowing=max(0, state.pending_slowing - 1),
            )
        case ev.RiverCleared():
            return _leave_river(state, event.discarded, "discard")
        case ev.ActionsUnlocked():
            return replace(state, locked=state.locked - set(event.actions))
        case ev.MazeEscaped():
            return replace(state, phase="escaped", outcome=event.reason, choice=None, trap=None)
        case ev.MazeEnded():
            return replace(state, phase="ended", outcome=event.reason, choice=None, trap=None)
        case ev.MemberOverridden():
            return _member(state, event)
        case ev.TurnOverridden():
            return _turn(state, event)
        case ev.CardRevealedByGm():
            return replace(state, face_up=state.face_up | {event.card.card})
        case ev.RiverCardMovedByGm():
            return _move_from_river(state, event)
        case ev.ScoreOverridden():
            return replace(
                state, right_paths=event.right_paths, monster_points=event.monster_points
            )
        case ev.ActionsOverridden():
            return replace(
                state,
                locked=frozenset(event.locked),
                unavailable=frozenset(event.removed),
                action_taken=event.action_taken,
            )
        case ev.DiceRolled():
            return state  # the roll log changes nothing on the table
        case ev.TrapOverridden():
            assert state.trap is not None
            return replace(state, trap=PendingTrap(state.trap.card, event.entry, event.dc))
        case _:
            assert_never(event)
