"""A maze compiled for simulation: card kinds as small ints and every check as a probability.

Every check in the engine is `roll(expression) >= DC`, so the simulator draws one uniform
per check against the exact success probability instead of rolling dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from services.dice import probability
from services.labyrinth import (
    Action,
    CardKind,
    MazeDefinition,
    PartyMember,
    TrapEffect,
    build_cards,
)
from services.labyrinth.traps import pick_row
from services.labyrinth.vocab import ACTION_STAT, LOCKED_ACTIONS
from services.sim.combat import CombatModel, check_probability

RP, DE, MO, TR = 0, 1, 2, 3
KIND_CODE = {
    CardKind.RIGHT_PATH: RP,
    CardKind.DEAD_END: DE,
    CardKind.MONSTER: MO,
    CardKind.TRAP: TR,
}
CODE_KIND = {v: k for k, v in KIND_CODE.items()}
ACTION_INDEX = {a: i for i, a in enumerate(LOCKED_ACTIONS)}
SLOWING, POISON, SLEEP, CUSTOM = 0, 1, 2, 3
EFFECT_CODE = {
    TrapEffect.SLOWING: SLOWING,
    TrapEffect.POISON_DART: POISON,
    TrapEffect.SLEEP_DUST: SLEEP,
    TrapEffect.CUSTOM: CUSTOM,
}


@lru_cache(maxsize=1024)
def pmf(expression: str) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """Values and cumulative probabilities of a total (an exploding tail is renormalised)."""
    dist = probability(expression).dist
    values = tuple(sorted(dist.pmf))
    mass = sum(dist.pmf.values())
    cum, acc = [], 0
    for v in values:
        acc += dist.pmf[v]
        cum.append(acc / mass)
    cum[-1] = 1.0
    return values, tuple(cum)


@dataclass(frozen=True, slots=True)
class TrapRow:
    """One trap-table row: its chance, effect and each member's chance to disarm it."""

    effect: int
    p_disarm: tuple[float, ...]
    monster_on_top: bool
    sleep_turns: int


@dataclass(frozen=True, slots=True)
class CompiledMaze:
    """Everything the fast game loop needs, precomputed once per (maze, party, combat)."""

    deck: tuple[int, ...]
    pool: tuple[int, int, int, int]
    goal: int | None
    kill_monster: bool
    monster_need: int
    points_reset: bool
    turn_timing: bool
    overflow_to_deck: bool
    dead_ends_to_discard: bool
    remove_from_deck: bool
    failed_locks: bool
    remove_for_large_party: bool
    removal_reroll: bool
    members: int
    initiative: tuple[tuple[tuple[int, ...], tuple[float, ...]], ...]
    p_action: tuple[tuple[float, ...], ...]
    trap_cum: tuple[float, ...]
    trap_rows: tuple[TrapRow, ...]
    combat: tuple[float, float]


def compile_maze(
    definition: MazeDefinition,
    party: tuple[PartyMember, ...],
    combat: CombatModel,
) -> CompiledMaze:
    """Precompute kinds, pools and probabilities for `definition` played by `party`."""
    deck, pool = build_cards(definition)
    counts = [0, 0, 0, 0]
    for card in pool:
        counts[KIND_CODE[card.kind]] += 1
    s = definition.settings
    table = definition.trap_table
    values, cum = pmf(table.die)
    row_p = [0.0] * len(table.entries)
    prev = 0.0
    for v, c in zip(values, cum, strict=True):
        row_p[table.entries.index(pick_row(table.entries, v))] += c - prev
        prev = c
    rows, trap_cum, acc = [], [], 0.0
    for entry, p in zip(table.entries, row_p, strict=True):
        dc = definition.dc + entry.dc_offset
        rows.append(
            TrapRow(
                effect=EFFECT_CODE[entry.effect],
                p_disarm=tuple(check_probability(m.profile.disarm, dc) for m in party),
                monster_on_top=entry.monster_on_top,
                sleep_turns=entry.sleep_turns,
            )
        )
        acc += p
        trap_cum.append(acc)
    trap_cum[-1] = 1.0
    win, flee, _ = combat.outcome_probabilities(definition, party)
    return CompiledMaze(
        deck=tuple(KIND_CODE[c.kind] for c in deck),
        pool=(counts[0], counts[1], counts[2], counts[3]),
        goal=definition.victory.right_paths,
        kill_monster=definition.victory.kill_monster,
        monster_need=s.monster_points_for_encounter,
        points_reset=s.monster_points_reset,
        turn_timing=s.deal_timing == "turn",
        overflow_to_deck=definition.overflow_monster_to == "deck",
        dead_ends_to_discard=s.dead_ends_removed_to == "discard",
        remove_from_deck=definition.monster_removed_from == "deck",
        failed_locks=s.failed_action_locks,
        remove_for_large_party=definition.remove_actions_for_large_party,
        removal_reroll=s.action_removal_roll == "reroll",
        members=len(party),
        initiative=tuple(pmf(m.profile.initiative) for m in party),
        p_action=tuple(
            tuple(
                check_probability(m.profile.expression(ACTION_STAT[a]), definition.dc)
                for a in LOCKED_ACTIONS
            )
            for m in party
        ),
        trap_cum=tuple(trap_cum),
        trap_rows=tuple(rows),
        combat=(win, win + flee),
    )


__all__ = ["ACTION_INDEX", "Action", "CompiledMaze", "compile_maze"]
