"""Resolving the card a player flipped or chose: one rule per card kind."""

from __future__ import annotations

from services.labyrinth.emit import Emitter
from services.labyrinth.encounters import start_encounter
from services.labyrinth.events import (
    DeadEndStuck,
    MazeEscaped,
    MonsterPointScored,
    RightPathScored,
)
from services.labyrinth.traps import roll_trap
from services.labyrinth.turns import check_overflow, finish_turn
from services.labyrinth.vocab import CardKind


def resolve(em: Emitter, card: str) -> None:
    """Apply a revealed card's effect; the turn ends unless a trap or encounter waits."""
    s = em.state
    kind = s.kind(card)
    if kind is CardKind.RIGHT_PATH:
        points = s.right_paths + 1
        em.emit(RightPathScored(points=points))
        goal = s.maze.victory.right_paths
        if goal is not None and points >= goal:
            em.emit(MazeEscaped(reason="right_paths"))
            return
    elif kind is CardKind.DEAD_END:
        em.emit(DeadEndStuck(card=em.slot_card(card, s.slot_of(card))))
        check_overflow(em)
    elif kind is CardKind.MONSTER:
        points = s.monster_points + 1
        em.emit(MonsterPointScored(points=points))
        if points >= s.maze.settings.monster_points_for_encounter:
            start_encounter(em)
            return
    else:
        roll_trap(em, card)
        return
    finish_turn(em)
