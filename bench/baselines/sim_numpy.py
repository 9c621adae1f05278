"""A numpy-vectorised simulator: Enchanted Forest v1, blind policy, default party.

The same rules and the same case as `sim_loop.py`, one turn of every running game per
step. Each game's deck is a row of kinds (top at column `top`), the discard pile is a
count per kind (it is only ever used shuffled), and a reshuffle lays the counts out in a
uniformly random order under what is left of the deck.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from bench.baselines.sim_loop import (
    DE,
    DEFEATED,
    DISARM_SLEEP,
    DISARM_SLOWING,
    ESCAPED_KILL,
    ESCAPED_PATHS,
    MO,
    NO_CARDS,
    RP,
    TR,
    TURN_LIMIT,
    WIN,
)

WIDTH = 48  # more than every card that can be in circulation (15 + 20 from the pool)
HEAD = 2  # room above the top for a Monster put on top (at most one per turn)
KINDS = np.arange(4)
I8 = NDArray[np.int8]
I64 = NDArray[np.int64]


def shuffled_counts(counts: I64, rng: np.random.Generator) -> I8:
    """Rows whose first `counts.sum(1)` entries are a uniform shuffle of those kinds."""
    j = np.arange(WIDTH)
    cum = np.cumsum(counts, axis=1)
    kinds = (j >= cum[:, :1]).astype(np.int8) + (j >= cum[:, 1:2]) + (j >= cum[:, 2:3])
    keys = rng.random((len(counts), WIDTH))
    keys[j >= cum[:, 3:4]] = 2.0
    out: I8 = np.take_along_axis(kinds, np.argsort(keys, axis=1), axis=1)
    return out


def run(games: int, seed: int, max_turns: int = 500) -> tuple[I64, I64]:
    """`games` games from one seed: (outcome per game, turns per game)."""
    rng = np.random.Generator(np.random.PCG64(seed))
    outcome = np.full(games, -1, dtype=np.int64)
    turns_of = np.zeros(games, dtype=np.int64)
    deck = np.zeros((games, HEAD + WIDTH), dtype=np.int8)
    deck[:, HEAD:] = shuffled_counts(np.tile(np.array([5, 5, 2, 3]), (games, 1)), rng)
    top = np.full(games, HEAD)
    end = np.full(games, HEAD + 15)
    discard = np.zeros((games, 4), dtype=np.int64)
    pool_mo = np.full(games, 10)
    pool_de = np.full(games, 10)
    stuck = np.zeros(games, dtype=np.int64)
    paths = np.zeros(games, dtype=np.int64)
    points = np.zeros(games, dtype=np.int64)
    ids = np.arange(games)
    turns = 0
    while len(ids):
        turns += 1
        n = len(ids)
        rows = np.arange(n)
        if turns > max_turns:
            outcome[ids], turns_of[ids] = TURN_LIMIT, max_turns
            break
        need = 3 - stuck
        short = (end - top < need) & (discard.sum(1) > 0)
        if short.any():
            # The discard pile, shuffled, goes under what is left of the deck.
            r = np.nonzero(short)[0]
            left = end[r] - top[r]
            j = np.arange(WIDTH)
            rest = np.take_along_axis(deck[r], np.minimum(top[r, None] + j, HEAD + WIDTH - 1), 1)
            under = shuffled_counts(discard[r], rng)
            under = np.take_along_axis(under, np.maximum(j - left[:, None], 0), 1)
            deck[r, HEAD:] = np.where(j < left[:, None], rest[:, :WIDTH], under)
            top[r] = HEAD
            end[r] = HEAD + left + discard[r].sum(1)
            discard[r] = 0
        k = np.minimum(need, end - top)
        u = rng.random((n, 4))
        pick = (u[:, 0] * k).astype(np.int64)
        card = deck[rows, np.minimum(top + pick, HEAD + WIDTH - 1)]
        for c in range(3):
            dealt = deck[rows, np.minimum(top + c, HEAD + WIDTH - 1)]
            discard += (dealt[:, None] == KINDS) & (c < k)[:, None]
        top += k
        done = np.full(n, -1)
        done[k == 0] = NO_CARDS
        is_rp = (card == RP) & (k > 0)
        paths += is_rp
        done[is_rp & (paths >= 5)] = ESCAPED_PATHS
        is_de = (card == DE) & (k > 0)
        discard[:, DE] -= is_de
        is_mo = (card == MO) & (k > 0)
        points += is_mo
        fight = is_mo & (points >= 2)
        done[fight] = np.where(u[fight, 1] < WIN, ESCAPED_KILL, DEFEATED)
        is_tr = (card == TR) & (k > 0)
        row = u[:, 2] * 6
        failed = u[:, 3]
        slowing = is_tr & (row < 3) & (failed >= DISARM_SLOWING) & (pool_de > 0)
        sleep = is_tr & (row >= 5) & (failed >= DISARM_SLEEP) & (pool_mo > 0)
        pool_mo -= sleep
        top -= sleep
        deck[rows[sleep], top[sleep]] = MO
        pool_de -= slowing
        stuck += is_de.astype(np.int64) + slowing
        full = stuck == 3
        stuck[full] = 0
        extra = full & (pool_mo > 0)
        pool_mo -= extra
        discard[:, MO] += extra
        ended = done >= 0
        if ended.any():
            outcome[ids[ended]], turns_of[ids[ended]] = done[ended], turns
            keep = ~ended
            ids, deck, top, end = ids[keep], deck[keep], top[keep], end[keep]
            discard = discard[keep]
            pool_mo, pool_de, stuck = pool_mo[keep], pool_de[keep], stuck[keep]
            paths, points = paths[keep], points[keep]
    return outcome, turns_of
