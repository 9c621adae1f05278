"""The card zones of a batch of games, as arrays: deck rows, discard counts, the river.

Cards of one kind are interchangeable for every rule, so each game's deck is a row of
kind codes (top at column `top`, bottom before `end`) and the discard pile — only ever
used shuffled — is a count per kind. The river is the face-down cards in river order
(`down`, `nd` of them), the count of stuck Dead Ends, and the face-up cards waiting for
the discard pile at the turn's end (`pending`). Used by `vector.Batch`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from services.sim.model import DE, MO, CompiledMaze

RIVER = 3
HEAD = 4  # room above the top for cards put back on top before the row is rebuilt
KINDS = np.arange(4)
Ints = NDArray[np.int64]


def onehot(kinds: NDArray[Any], valid: NDArray[np.bool_]) -> Ints:
    """Per row, 1 in the column of its kind where `valid`."""
    out: Ints = ((kinds[:, None] == KINDS) & valid[:, None]).astype(np.int64)
    return out


def counts(kinds: NDArray[Any], valid: NDArray[np.bool_]) -> Ints:
    """Per row, how many valid cells hold each kind (one bincount over the batch)."""
    n = len(kinds)
    rows = np.broadcast_to(np.arange(n)[:, None] * 4, kinds.shape)
    flat = np.bincount((rows + kinds)[valid], minlength=4 * n)
    out: Ints = flat.reshape(n, 4)
    return out


class Zones:
    """Deck rows, discard and pool counts and the river of many games, with their moves."""

    m: CompiledMaze
    rng: np.random.Generator
    width: int
    deck: NDArray[np.int8]
    top: Ints
    end: Ints
    discard: Ints
    pool: Ints
    down: NDArray[np.int8]
    nd: Ints
    stuck: Ints
    pending: Ints

    def _layout(self, counts: Ints) -> NDArray[np.int8]:
        """Rows whose first `counts.sum(1)` entries are those kinds in uniform random order.

        As wide as the longest row (at least 1): the argsort is most of the cost.
        """
        cum = np.cumsum(counts, axis=1)
        j = np.arange(max(1, int(cum[:, 3].max())))
        kinds = (j >= cum[:, :1]).astype(np.int8) + (j >= cum[:, 1:2]) + (j >= cum[:, 2:3])
        keys = self.rng.random((len(counts), len(j)))
        keys[j >= cum[:, 3:4]] = 2.0
        out: NDArray[np.int8] = np.take_along_axis(
            kinds.astype(np.int8), np.argsort(keys, axis=1), axis=1
        )
        return out

    def _rebuild(self, r: Ints, under: Ints | None) -> None:
        """Move rows `r`'s deck to HEAD, with `under` (counts) shuffled beneath it."""
        left = self.end[r] - self.top[r]
        added = np.zeros(len(r), dtype=np.int64) if under is None else under.sum(1)
        j = np.arange(max(1, int((left + added).max())))
        last = HEAD + self.width - 1
        row = np.take_along_axis(self.deck[r], np.minimum(self.top[r, None] + j, last), axis=1)
        if under is not None:
            shuffled = self._layout(under)
            at = np.clip(j - left[:, None], 0, shuffled.shape[1] - 1)
            row = np.where(j < left[:, None], row, np.take_along_axis(shuffled, at, axis=1))
        self.deck[r, HEAD : HEAD + len(j)] = row
        self.top[r] = HEAD
        self.end[r] = HEAD + left + added

    def _ensure(self, mask: NDArray[np.bool_], needed: Ints | int) -> None:
        """Reshuffle the discard pile under the deck where the deck cannot give `needed`."""
        short = mask & (self.end - self.top < needed) & (self.discard.sum(1) > 0)
        if short.any():
            r = np.nonzero(short)[0]
            self._rebuild(r, self.discard[r])
            self.discard[r] = 0

    def _deal(self, mask: NDArray[np.bool_], count: Ints | int, empty_river: bool = False) -> None:
        """Deal up to `count` cards face down (reshuffling first if needed).

        `empty_river`: the caller knows no face-down card is left (a turn-timing deal).
        """
        self._ensure(mask, count)
        k = np.where(mask, np.minimum(count, self.end - self.top), 0)
        j = np.arange(RIVER)
        last = HEAD + self.width - 1
        dealt = np.take_along_axis(self.deck, np.minimum(self.top[:, None] + j, last), axis=1)
        if empty_river:
            self.down = np.where(j < k[:, None], dealt, self.down)
        else:
            # New cards go after the face-down cards already in the river, in deal order.
            at = np.clip(j - self.nd[:, None], 0, RIVER - 1)
            new = (j >= self.nd[:, None]) & (j < (self.nd + k)[:, None])
            self.down = np.where(new, np.take_along_axis(dealt, at, axis=1), self.down)
        self.top += k
        self.nd += k

    def _on_top(self, mask: NDArray[np.bool_], kinds: NDArray[Any] | int) -> None:
        """Put a card of `kinds` (per game, or one kind) on top of the deck where `mask`."""
        low = mask & (self.top < 1)
        if low.any():
            self._rebuild(np.nonzero(low)[0], None)
        r = np.nonzero(mask)[0]
        self.top[r] -= 1
        self.deck[r, self.top[r]] = kinds if isinstance(kinds, int) else kinds[r]

    def _add_monster(self, mask: NDArray[np.bool_], destination: str) -> None:
        """A Monster card from outside the game, if the pool has one left."""
        mask = mask & (self.pool[:, MO] > 0)
        if not mask.any():
            return
        self.pool[:, MO] -= mask
        if destination == "discard":
            self.discard[:, MO] += mask
        elif destination == "top":
            self._on_top(mask, MO)
        else:  # shuffled into the deck: only the deck's counts survive the shuffle
            r = np.nonzero(mask)[0]
            counts = self._deck_counts(r)
            counts[:, MO] += 1
            self.top[r] = self.end[r]
            self._rebuild(r, counts)

    def _deck_counts(self, r: Ints) -> Ints:
        cols = np.arange(HEAD + self.width)
        inside = (cols >= self.top[r, None]) & (cols < self.end[r, None])
        deck = self.deck[r]
        counts: Ints = np.stack([((deck == k) & inside).sum(1) for k in range(4)], axis=1)
        return counts

    def _remove_topmost_monster(self, mask: NDArray[np.bool_]) -> None:
        """v1: the topmost Monster card in the deck leaves the game (none if there is none)."""
        r = np.nonzero(mask)[0]
        if not len(r):
            return
        cols = np.arange(HEAD + self.width)
        deck = self.deck[r]
        hit = (deck == MO) & (cols >= self.top[r, None]) & (cols < self.end[r, None])
        found = hit.any(1)
        r, deck, first = r[found], deck[found], hit[found].argmax(1)
        # Every card above it moves down one place; the top moves down with them.
        shift = (cols > self.top[r, None]) & (cols <= first[:, None])
        source = np.where(shift, cols - 1, cols)
        self.deck[r] = np.take_along_axis(deck, source, axis=1)
        self.top[r] += 1

    def _overflow(self, mask: NDArray[np.bool_]) -> None:
        """Three stuck Dead Ends leave the river and bring a Monster card."""
        full = mask & (self.stuck >= RIVER)
        if not full.any():
            return
        if self.m.dead_ends_to_discard:
            self.discard[:, DE] += np.where(full, self.stuck, 0)
        self.stuck[full] = 0
        self._add_monster(full, "deck" if self.m.overflow_to_deck else "discard")

    def _clear_down(self, mask: NDArray[np.bool_]) -> None:
        valid = mask[:, None] & (np.arange(RIVER) < self.nd[:, None])
        self.discard += counts(self.down, valid)
        self.nd[mask] = 0

    def _take_down(self, mask: NDArray[np.bool_], index: Ints) -> NDArray[np.int8]:
        """Remove face-down card `index` where `mask`, keeping river order; its kind."""
        kind: NDArray[np.int8] = np.take_along_axis(
            self.down, np.minimum(index, RIVER - 1)[:, None], axis=1
        )[:, 0]
        later = mask[:, None] & (np.arange(RIVER - 1) >= index[:, None])
        self.down[:, :-1] = np.where(later, self.down[:, 1:], self.down[:, :-1])
        self.nd -= mask
        return kind
