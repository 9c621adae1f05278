"""Monster points, encounters in initiative order, and how they end."""

from __future__ import annotations

from services.labyrinth.emit import Emitter
from services.labyrinth.events import (
    Combatant,
    EncounterResolved,
    EncounterStarted,
    MazeEnded,
    MazeEscaped,
    MonsterCardRemoved,
)
from services.labyrinth.traps import pick_row
from services.labyrinth.turns import finish_turn
from services.labyrinth.vocab import CardKind, EncounterOutcome


def start_encounter(em: Emitter) -> None:
    """Roll the monster table and its initiative; slot it in after players it does not beat."""
    s = em.state
    table = s.maze.monster_table
    table_roll = em.roll(table.die)
    entry = pick_row(table.entries, table_roll.total)
    initiative = em.roll(entry.initiative)
    players = [
        Combatant(s.member(p).name, p, s.initiative[p]) for p in s.order if p not in s.out_of_play
    ]
    at = next((i for i, c in enumerate(players) if c.initiative < initiative.total), len(players))
    monster = Combatant(entry.name, None, initiative.total)
    order = (*players[:at], monster, *players[at:])
    em.emit(
        EncounterStarted(
            monster=entry.name, table_roll=table_roll, monster_initiative=initiative, order=order
        )
    )


def _monster_to_remove(em: Emitter) -> MonsterCardRemoved | None:
    s = em.state
    if s.maze.monster_removed_from == "deck":
        card = next((c for c in s.deck if s.kind(c) is CardKind.MONSTER), None)
        return None if card is None else MonsterCardRemoved(card=card, zone="deck")
    revealed = [c for c in s.river if c in s.face_up and s.kind(c) is CardKind.MONSTER]
    return MonsterCardRemoved(card=revealed[-1], zone="river") if revealed else None


def resolve_encounter(em: Emitter, outcome: EncounterOutcome) -> None:
    """Record the GM's outcome: a defeated monster leaves the game, and may win the maze."""
    s = em.state
    points = 0 if s.maze.settings.monster_points_reset else s.monster_points
    em.emit(EncounterResolved(outcome=outcome, monster_points=points))
    if outcome is EncounterOutcome.PARTY_DEFEATED:
        em.emit(MazeEnded(reason="party_defeated"))
        return
    if outcome is EncounterOutcome.MONSTER_DEFEATED:
        removal = _monster_to_remove(em)
        if removal is not None:
            em.emit(removal)
        if s.maze.victory.kill_monster:
            em.emit(MazeEscaped(reason="monster_killed"))
            return
    finish_turn(em)
