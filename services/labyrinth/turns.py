"""The turn cycle: ending a turn, Dead Ends filling the river, rounds, sleepers, the next deal."""

from __future__ import annotations

from typing import Literal

from services.labyrinth.emit import RIVER_SIZE, Emitter
from services.labyrinth.events import (
    ActionsUnlocked,
    DeadEndPlaced,
    DeadEndsCleared,
    MazeEnded,
    MonsterCardAdded,
    PlayerWoke,
    RiverCleared,
    RoundEnded,
    TurnEnded,
    TurnSkipped,
    TurnStarted,
)
from services.labyrinth.vocab import CardKind


def pool_card(em: Emitter, kind: CardKind) -> str | None:
    """The first card of `kind` outside the game, if any is left."""
    s = em.state
    return next((c for c in s.pool if s.kind(c) is kind), None)


def add_monster(em: Emitter, destination: Literal["discard", "deck", "deck_top"]) -> None:
    """Bring a Monster card from outside the game (none if the pool has run out)."""
    card = pool_card(em, CardKind.MONSTER)
    if card is None:
        return
    if destination == "deck":
        em.emit(
            MonsterCardAdded(
                card=card, destination="deck", deck=em.shuffled((*em.state.deck, card))
            )
        )
    else:
        em.emit(MonsterCardAdded(card=card, destination=destination))


def check_overflow(em: Emitter) -> None:
    """Dead Ends that fill the river leave it and add a Monster card (v1 discard, v2 deck)."""
    s = em.state
    if len(s.stuck) < RIVER_SIZE:
        return
    cards = tuple(em.slot_card(c, s.slot_of(c)) for c in s.river if c in s.stuck)
    em.emit(DeadEndsCleared(cards=cards, destination=s.maze.settings.dead_ends_removed_to))
    add_monster(em, s.maze.overflow_monster_to)


def finish_turn(em: Emitter) -> None:
    """Discard the river (Dead Ends stay), apply Slowing, then start the next turn."""
    s = em.state
    assert s.active is not None
    if s.maze.settings.deal_timing == "turn":
        gone = tuple([c for c in s.river if c not in s.stuck])
    else:
        gone = tuple([c for c in s.river if c in s.face_up and c not in s.stuck])
    em.emit(TurnEnded(player=s.active, discarded=gone + s.held))
    for _ in range(em.state.pending_slowing):
        card = pool_card(em, CardKind.DEAD_END)
        if card is None:
            break
        em.emit(DeadEndPlaced(card=em.slot_card(card, em.fresh_slot(set(em.state.slots)))))
        check_overflow(em)
    start_next_turn(em)


def _end_round(em: Emitter) -> None:
    s = em.state
    em.emit(RoundEnded(round=s.round))
    available = em.state.available_actions
    if available and available <= em.state.locked:
        em.emit(ActionsUnlocked(actions=tuple(sorted(em.state.locked))))
    if em.state.maze.settings.deal_timing == "round" and em.state.face_down:
        em.emit(RiverCleared(discarded=em.state.face_down))


def start_next_turn(em: Emitter) -> None:
    """Advance in initiative order (skipping sleepers), deal, and wait for the player.

    Members the GM took out of play are passed over without an event (at least one member
    is always in play: the override that would take the last one out is refused).
    """
    index = em.state.turn_index + 1
    while True:
        s = em.state
        if index >= len(s.order):
            _end_round(em)
            index = em.state.turn_index + 1
            continue
        player = s.order[index]
        index += 1
        if player in s.out_of_play:
            continue
        left = s.asleep.get(player)
        if left is None:
            break
        em.emit(TurnSkipped(player=player, asleep_turns_left=max(0, left - 1)))
        if left <= 1:
            em.emit(PlayerWoke(player=player, by=None))
    em.emit(TurnStarted(player=player, round=em.state.round))
    if em.state.maze.settings.deal_timing == "turn" or not em.state.face_down:
        em.fill_river()
    if not em.state.face_down:
        em.emit(MazeEnded(reason="no_cards_left"))
