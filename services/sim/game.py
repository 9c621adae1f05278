"""The scalar game loop: one labyrinth game on card kinds, following services/labyrinth's rules.

Zones hold kind codes (cards of one kind are interchangeable for every rule), the deck's
top is the END of its list, and the river is split into face-down cards, face-up cards
and a count of stuck Dead Ends. docs/SIMULATION.md maps each step to the engine. It plays
any registered policy; the built-in ones run vectorised (`vector.py`) by the same rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NamedTuple

import numpy as np

from services.labyrinth import Action
from services.labyrinth.vocab import LOCKED_ACTIONS
from services.sim.model import (
    CODE_KIND,
    DE,
    MO,
    POISON,
    RP,
    SLEEP,
    SLOWING,
    TR,
    CompiledMaze,
)
from services.sim.policies import Policy, TurnView

RIVER = 3
ESCAPED_PATHS, ESCAPED_KILL, DEFEATED, NO_CARDS, TURN_LIMIT = range(5)
OUTCOMES = ("right_paths", "monster_killed", "party_defeated", "no_cards_left", "turn_limit")
FREE_ALL = frozenset(LOCKED_ACTIONS)
_IDX = {a: i for i, a in enumerate(LOCKED_ACTIONS)}


class GameResult(NamedTuple):
    """How one game ended and what happened on the way."""

    outcome: int
    turns: int
    encounters: int
    traps: int
    disarmed: int


def uniforms(generator: np.random.Generator, block: int = 8192) -> Callable[[], float]:
    """A fast scalar uniform source drawing blocks from a numpy generator."""

    def stream() -> Iterator[float]:
        while True:
            yield from generator.random(block).tolist()

    return stream().__next__


def _shuffle(cards: list[int], u: Callable[[], float]) -> None:
    for i in range(len(cards) - 1, 0, -1):
        j = int(u() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def _sample(cum: tuple[float, ...], x: float) -> int:
    i = 0
    while cum[i] < x:
        i += 1
    return i


def play(
    m: CompiledMaze, policy: Policy, u: Callable[[], float], max_turns: int = 500
) -> GameResult:
    """Play one game to its end (escape, defeat, no cards, or `max_turns` turns started)."""
    deck = list(m.deck)
    _shuffle(deck, u)
    deck.reverse()  # top at the end; the engine's deck[0] is the top
    pool = list(m.pool)
    discard: list[int] = []
    down: list[int] = []
    up: list[int] = []
    stuck = 0
    inits = []
    for values, cum in m.initiative:
        inits.append(values[_sample(cum, u())])
    order = sorted(range(m.members), key=lambda i: -inits[i])
    unavailable: set[Action] = set()
    if m.remove_for_large_party and m.members in (4, 5):
        sides, count = (6, 2) if m.members == 4 else (4, 1)
        for _ in range(count):
            while True:
                r = int(u() * sides) + 1
                named = LOCKED_ACTIONS[r - 1] if r <= len(LOCKED_ACTIONS) else None
                if named is not None and named not in unavailable:
                    unavailable.add(named)
                    break
                if not m.removal_reroll:
                    break
    available = FREE_ALL - unavailable
    locked: set[Action] = set()
    asleep: dict[int, int] = {}
    turn_index = -1
    right_paths = monster_points = 0
    turns = encounters = traps = disarmed = 0

    def ensure(needed: int) -> None:
        nonlocal deck, discard
        if len(deck) < needed and discard:
            _shuffle(discard, u)
            discard.reverse()
            deck = discard + deck
            discard = []

    def draw(count: int) -> list[int]:
        ensure(count)
        out = []
        for _ in range(min(count, len(deck))):
            out.append(deck.pop())
        return out

    def add_monster(where: str) -> None:
        if not pool[MO]:
            return
        pool[MO] -= 1
        if where == "discard":
            discard.append(MO)
        elif where == "top":
            deck.append(MO)
        else:
            deck.append(MO)
            _shuffle(deck, u)

    def overflow() -> None:
        nonlocal stuck
        if stuck < RIVER:
            return
        if m.dead_ends_to_discard:
            discard.extend([DE] * stuck)
        stuck = 0
        add_monster("deck" if m.overflow_to_deck else "discard")

    while True:
        # start_next_turn: advance in initiative order, skipping sleepers.
        while True:
            idx = turn_index + 1
            if idx >= len(order):
                if available and available <= locked:
                    locked = set()
                if not m.turn_timing and down:
                    discard.extend(down)
                    down = []
                turn_index = -1
                continue
            player = order[idx]
            turn_index = idx
            left = asleep.get(player)
            if left is None:
                break
            if left <= 1:
                del asleep[player]
            else:
                asleep[player] = left - 1
        turns += 1
        if turns > max_turns:
            return GameResult(TURN_LIMIT, turns - 1, encounters, traps, disarmed)
        if m.turn_timing or not down:
            down.extend(draw(max(0, RIVER - len(down) - len(up) - stuck)))
        if not down:
            return GameResult(NO_CARDS, turns, encounters, traps, disarmed)
        slowing = 0
        card = -1
        p_act = m.p_action[player]
        free = available - locked
        choice = (
            policy.action(TurnView(len(down), stuck, len(deck) + len(discard), frozenset(free)))
            if free
            else None
        )
        if choice is not None:
            success = u() < p_act[_IDX[choice]]
            if success or m.failed_locks:
                locked.add(choice)
            if success:
                if choice is Action.CAREFUL_CONSIDERATION:
                    options = [down.pop(), down.pop()]
                    up.extend(options)
                    card = options[policy.pick([CODE_KIND[k] for k in options])]
                elif choice is Action.SCOUT_AHEAD:
                    river_card = down.pop()
                    ensure(1)
                    options = [river_card, deck.pop()]
                    up.extend(options)
                    card = options[policy.pick([CODE_KIND[k] for k in options])]
                elif choice is Action.BOOST_MORALE:
                    stuck -= 1
                    down.extend(draw(1))
                elif choice is Action.ITS_ELEMENTARY:
                    held = draw(3)
                    if held:
                        bottom = held.pop(policy.bottom([CODE_KIND[k] for k in held]))
                        _shuffle(held, u)
                        held.reverse()
                        deck = [bottom, *deck, *held]
                else:
                    take = min(2, pool[RP])
                    pool[RP] -= take
                    discard.extend([RP] * take)
        if card < 0:
            # Flip a uniformly random face-down card.
            i = int(u() * len(down))
            card = down[i]
            down[i] = down[-1]
            down.pop()
            up.append(card)
        # resolve(card): it lies face up in the river.
        if card == RP:
            right_paths += 1
            if m.goal is not None and right_paths >= m.goal:
                return GameResult(ESCAPED_PATHS, turns, encounters, traps, disarmed)
        elif card == DE:
            up.remove(DE)
            stuck += 1
            overflow()
        elif card == MO:
            monster_points += 1
            if monster_points >= m.monster_need:
                encounters += 1
                x = u()
                if m.points_reset:
                    monster_points = 0
                if x >= m.combat[1]:
                    return GameResult(DEFEATED, turns, encounters, traps, disarmed)
                if x < m.combat[0]:
                    if m.remove_from_deck:
                        for j in range(len(deck) - 1, -1, -1):
                            if deck[j] == MO:
                                del deck[j]
                                break
                    elif MO in up:
                        up.remove(MO)
                    if m.kill_monster:
                        return GameResult(ESCAPED_KILL, turns, encounters, traps, disarmed)
        else:
            traps += 1
            row = m.trap_rows[_sample(m.trap_cum, u())]
            if policy.disarm() and u() < row.p_disarm[player]:
                disarmed += 1
            elif row.effect == SLOWING:
                slowing += 1
            elif row.effect == SLEEP:
                if row.monster_on_top:
                    add_monster("top")
                if row.sleep_turns > 0:
                    asleep[player] = row.sleep_turns
            elif row.effect == POISON:
                pass  # saves and damage change no state the maze tracks
        # finish_turn: discard the river (Dead Ends stay), then Slowing.
        discard.extend(up)
        up = []
        if m.turn_timing:
            discard.extend(down)
            down = []
        for _ in range(slowing):
            if not pool[DE]:
                break
            pool[DE] -= 1
            stuck += 1
            overflow()


__all__ = ["OUTCOMES", "TR", "GameResult", "play", "uniforms"]
