"""Traps: rolling the trap table, disarming, and what a sprung trap does."""

from __future__ import annotations

from typing import TypeVar

from services.labyrinth.definition import MonsterEntry, TrapEntry
from services.labyrinth.emit import Emitter
from services.labyrinth.events import (
    DisarmAttempted,
    PlayerFellAsleep,
    PoisonSave,
    TrapRolled,
    TrapSprung,
)
from services.labyrinth.profiles import Stat
from services.labyrinth.turns import add_monster, finish_turn
from services.labyrinth.vocab import TrapEffect

Row = TypeVar("Row", TrapEntry, MonsterEntry)


def pick_row(rows: tuple[Row, ...], total: int) -> Row:
    """The row whose range holds `total`; a total outside every row takes the nearest row."""
    for row in rows:
        if row.low <= total <= row.high:
            return row
    return min(rows, key=lambda r: min(abs(total - r.low), abs(total - r.high)))


def roll_trap(em: Emitter, card: str) -> None:
    """Roll on the maze's trap table; the active player then disarms or lets it go off."""
    s = em.state
    table = s.maze.trap_table
    roll = em.roll(table.die)
    entry = pick_row(table.entries, roll.total)
    em.emit(
        TrapRolled(
            card=em.slot_card(card, s.slot_of(card)),
            roll=roll,
            entry=entry,
            dc=s.maze.dc + entry.dc_offset,
        )
    )


def attempt_disarm(em: Emitter, player: str) -> None:
    """d20 + skill (the player's disarm expression) vs the trap's DC; failure springs it."""
    s = em.state
    assert s.trap is not None
    trap = s.trap
    roll = em.roll(s.member(player).profile.disarm)
    success = roll.total >= trap.dc
    em.emit(DisarmAttempted(player=player, roll=roll, dc=trap.dc, success=success))
    if not success:
        spring(em, trap.entry, player)
    if em.state.phase == "turn":
        finish_turn(em)


def skip_disarm(em: Emitter, player: str) -> None:
    """The active player lets the trap go off."""
    assert em.state.trap is not None
    spring(em, em.state.trap.entry, player)
    finish_turn(em)


def spring(em: Emitter, entry: TrapEntry, player: str) -> None:
    """Apply a trap's effect (Slowing takes hold when the river clears, in `finish_turn`)."""
    s = em.state
    if entry.effect is TrapEffect.POISON_DART:
        dc = s.maze.dc + entry.save_dc_offset
        saves = []
        for member in s.party:
            if member.id in s.out_of_play:
                continue
            save = em.roll(member.profile.expression(Stat.DEX))
            ok = save.total >= dc
            damage = None if ok else em.roll(entry.damage)
            saves.append(PoisonSave(member.id, save, dc, ok, damage))
        em.emit(TrapSprung(entry=entry, saves=tuple(saves)))
        return
    em.emit(TrapSprung(entry=entry))
    if entry.effect is TrapEffect.SLEEP_DUST:
        if entry.monster_on_top:
            add_monster(em, "deck_top")
        if entry.sleep_turns > 0:
            em.emit(PlayerFellAsleep(player=player, turns=entry.sleep_turns))
