"""A specialised pure-Python simulator: Enchanted Forest v1, blind policy, default party.

The strongest simple alternative to `services/sim` for bench/sim.py: the same rules as
the engine (docs/RULES.md, docs/SIMULATION.md) written for this one case. The party's
three members share one profile, so who acts never changes a check and Sleep Dust's
skipped turns change nothing but who flips (turns count only the turns played).
Outcome codes are services.sim.game's.
"""

from __future__ import annotations

import random

RP, DE, MO, TR = 0, 1, 2, 3
ESCAPED_PATHS, ESCAPED_KILL, DEFEATED, NO_CARDS, TURN_LIMIT = range(5)
DECK = [RP] * 5 + [DE] * 5 + [MO] * 2 + [TR] * 3
WIN = 0.5  # the default combat model: the monster is defeated half the time
# Trap rows (1d6): Slowing 1-3 at DC 12, Poison Dart 4-5 at DC 14, Sleep Dust 6 at DC 13;
# P(1d20 >= DC) for the default profile.
DISARM_SLOWING, DISARM_POISON, DISARM_SLEEP = 9 / 20, 7 / 20, 8 / 20


def play(rand: random.Random, max_turns: int = 500) -> tuple[int, int]:
    """One game: (outcome, turns)."""
    u = rand.random
    deck = DECK[:]
    rand.shuffle(deck)  # the top is the end of the list
    discard: list[int] = []
    pool_monsters = pool_dead_ends = 10
    stuck = paths = points = turns = 0
    while True:
        turns += 1
        if turns > max_turns:
            return TURN_LIMIT, max_turns
        need = 3 - stuck
        if len(deck) < need and discard:
            rand.shuffle(discard)
            deck = discard + deck
            discard = []
        k = min(need, len(deck))
        if k == 0:
            return NO_CARDS, turns
        dealt = deck[-k:]
        del deck[-k:]
        card = dealt.pop(int(u() * k))
        discard += dealt
        slowing = False
        if card == RP:
            paths += 1
            if paths >= 5:
                return ESCAPED_PATHS, turns
            discard.append(RP)
        elif card == DE:
            stuck += 1
        elif card == MO:
            points += 1
            if points >= 2:
                # Victory "or Kill the Monster": a defeated monster ends the maze.
                return (ESCAPED_KILL if u() < WIN else DEFEATED), turns
            discard.append(MO)
        else:
            discard.append(TR)
            x = u() * 6
            if x < 3:
                slowing = u() >= DISARM_SLOWING
            elif x < 5:
                pass  # Poison Dart: saves and damage change nothing the maze tracks
            elif u() >= DISARM_SLEEP and pool_monsters:
                pool_monsters -= 1
                deck.append(MO)  # v1: "Add a Monster card to the top of the deck"
        if slowing and pool_dead_ends:
            pool_dead_ends -= 1
            stuck += 1
        if stuck == 3:
            # They leave the game; v1 adds a Monster card to the discard pile.
            stuck = 0
            if pool_monsters:
                pool_monsters -= 1
                discard.append(MO)


def run(games: int, seed: int) -> list[tuple[int, int]]:
    """`games` games from one seed."""
    rand = random.Random(seed)
    return [play(rand) for _ in range(games)]
