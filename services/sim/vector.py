"""The vectorised game loop: a batch of labyrinth games, one turn of every running game per step.

The same rules as `game.py` (and so as services/labyrinth), on numpy arrays; the card
zones and their moves are `vzones.py`. Games that end leave the batch, so a step costs
in proportion to the games still running.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from numpy.typing import NDArray

from services.sim.game import DEFEATED, ESCAPED_KILL, ESCAPED_PATHS, NO_CARDS, OUTCOMES, TURN_LIMIT
from services.sim.model import DE, MO, RP, SLEEP, SLOWING, TR, CompiledMaze
from services.sim.stats import Tally
from services.sim.vpolicies import NO_ACTION, VectorPolicy
from services.sim.vzones import HEAD, RIVER, Ints, Zones, counts, onehot

BATCH_GAMES = 50_000  # a batch's arrays take a few hundred bytes a game
FORGE, SCOUT, ELEMENTARY, CAREFUL, BOOST = range(5)
ALL_ACTIONS = 0b11111
TURN_ORDER = frozenset({"order", "turn_index", "asleep", "locked", "available"})


class Batch(Zones):
    """The state of many games at once; `run` plays them all to their end."""

    # One array per piece of state, all indexed by the games still running.
    FIELDS = (
        *("ids", "deck", "top", "end", "discard", "pool", "down", "nd", "stuck", "pending"),
        *("order", "turn_index", "asleep", "locked", "available", "paths", "points"),
        *("encounters", "traps", "disarmed", "alive"),
    )
    # Ended games stay in the arrays (playing on, unrecorded) until this share of the
    # batch has ended: dropping them costs a copy of every array.
    COMPACT_AT = 0.3

    def __init__(
        self, m: CompiledMaze, policy: VectorPolicy, games: int, rng: np.random.Generator
    ) -> None:
        self.m, self.policy, self.rng = m, policy, rng
        n = games
        self.width = len(m.deck) + sum(m.pool) + 2 * RIVER
        deck_counts = np.bincount(np.array(m.deck, dtype=np.int64), minlength=4)
        self.deck = np.zeros((n, HEAD + self.width), dtype=np.int8)
        self.deck[:, HEAD : HEAD + len(m.deck)] = self._layout(np.tile(deck_counts, (n, 1)))
        self.top = np.full(n, HEAD, dtype=np.int64)
        self.end = np.full(n, HEAD + len(m.deck), dtype=np.int64)
        self.discard = np.zeros((n, 4), dtype=np.int64)
        self.pool = np.tile(np.array(m.pool, dtype=np.int64), (n, 1))
        self.down = np.zeros((n, RIVER), dtype=np.int8)
        self.nd = np.zeros(n, dtype=np.int64)
        self.stuck = np.zeros(n, dtype=np.int64)
        self.pending = np.zeros((n, 4), dtype=np.int64)
        self.order = self._initiative(n)
        self.turn_index = np.full(n, -1, dtype=np.int64)
        self.asleep = np.zeros((n, m.members), dtype=np.int64)
        self.locked = np.zeros(n, dtype=np.int64)
        self.available = self._available(n)
        self.paths = np.zeros(n, dtype=np.int64)
        self.points = np.zeros(n, dtype=np.int64)
        self.encounters = np.zeros(n, dtype=np.int64)
        self.traps = np.zeros(n, dtype=np.int64)
        self.disarmed = np.zeros(n, dtype=np.int64)
        self.ids = np.arange(n)
        self.alive = np.ones(n, dtype=np.bool_)
        self.outcome = np.full(n, -1, dtype=np.int64)
        self.result = {k: np.zeros(n, dtype=np.int64) for k in ("turns", "encounters", "traps")}
        self.result["disarmed"] = np.zeros(n, dtype=np.int64)
        self.p_action = np.array(m.p_action, dtype=np.float64)
        self.trap_cum = np.array(m.trap_cum, dtype=np.float64)
        self.trap_effect = np.array([r.effect for r in m.trap_rows], dtype=np.int64)
        self.trap_sleep = np.array([r.sleep_turns for r in m.trap_rows], dtype=np.int64)
        self.trap_on_top = np.array([r.monster_on_top for r in m.trap_rows], dtype=np.bool_)
        self.p_disarm = np.array([r.p_disarm for r in m.trap_rows], dtype=np.float64)
        # Who acts can change nothing when the policy never acts, the river is dealt every
        # turn (rounds matter only for unlocking actions and round deals) and every member
        # disarms alike: then turn order and sleep are not tracked (player 0 always acts).
        self.anonymous = (
            not policy.acts
            and m.turn_timing
            and bool((self.p_disarm == self.p_disarm[:, :1]).all())
        )
        # Then the turn-order arrays are never read, and dropping ended games skips them.
        self.fields = tuple(f for f in self.FIELDS if not (self.anonymous and f in TURN_ORDER))

    # ---- set-up ----------------------------------------------------------------------

    def _initiative(self, n: int) -> Ints:
        """Each game's turn order: highest initiative first, ties in party order."""
        rolls = np.empty((n, self.m.members), dtype=np.int64)
        for i, (values, cum) in enumerate(self.m.initiative):
            index = np.searchsorted(np.array(cum), self.rng.random(n), side="left")
            rolls[:, i] = np.array(values, dtype=np.int64)[np.minimum(index, len(values) - 1)]
        order: Ints = np.argsort(-rolls, axis=1, kind="stable")
        return order

    def _available(self, n: int) -> Ints:
        """v1's removal for parties of 4 and 5 (docs/RULES.md), as the engine rolls it."""
        m = self.m
        available = np.full(n, ALL_ACTIONS, dtype=np.int64)
        if not m.remove_for_large_party or m.members not in (4, 5):
            return available
        if m.members == 5:  # 1d4 once: one of the first four actions
            return available & ~(1 << self.rng.integers(0, 4, n))
        if m.removal_reroll:  # rerolled 6s and repeats: two distinct actions of five
            two = np.argsort(self.rng.random((n, 5)), axis=1)[:, :2]
            return available & ~((1 << two[:, 0]) | (1 << two[:, 1]))
        for face in self.rng.integers(1, 7, (2, n)):  # as printed: a 6 removes nothing
            available &= ~np.where(face <= 5, 1 << np.minimum(face - 1, 4), 0)
        return available

    # ---- a turn ----------------------------------------------------------------------

    def _next_players(self) -> Ints:
        """Advance in initiative order, skipping sleepers; end rounds on the way."""
        n = len(self.ids)
        rows = np.arange(n)
        player = np.zeros(n, dtype=np.int64)
        todo = np.ones(n, dtype=np.bool_)
        while todo.any():
            index = self.turn_index + 1
            ends = todo & (index >= self.m.members)
            if ends.any():
                done = (self.available & ~self.locked) == 0
                self.locked[ends & done & (self.available != 0)] = 0
                if not self.m.turn_timing:
                    self._clear_down(ends)
                index[ends] = 0
            self.turn_index = np.where(todo, index, self.turn_index)
            who = self.order[rows, np.minimum(self.turn_index, self.m.members - 1)]
            player = np.where(todo, who, player)
            left = self.asleep[rows, player]
            sleeping = todo & (left > 0)
            self.asleep[rows[sleeping], player[sleeping]] -= 1
            todo = sleeping
        return player

    def _act(self, player: Ints, card: NDArray[np.int8], u: NDArray[np.float64]) -> None:
        """The policy's action and, on a success, its effect; sets `card` when it chooses."""
        free = self.available & ~self.locked
        draw_left = self.end - self.top + self.discard.sum(1)
        action = self.policy.action(self.nd, self.stuck, draw_left, free)
        tried = action != NO_ACTION
        if not tried.any():
            return
        safe = np.maximum(action, 0)
        success = tried & (u[:, 1] < self.p_action[player, safe])
        lock = tried & (success | self.m.failed_locks)
        self.locked |= np.where(lock, 1 << safe, 0)
        rows = np.arange(len(action))
        careful = success & (action == CAREFUL)
        if careful.any():
            first = self._take_down(careful, np.zeros_like(self.nd))
            second = self._take_down(careful, np.zeros_like(self.nd))
            self._choose(careful, first, second, card)
        scout = success & (action == SCOUT)
        if scout.any():
            river = self._take_down(scout, np.zeros_like(self.nd))
            self._ensure(scout, 1)
            top = self.deck[rows, np.minimum(self.top, HEAD + self.width - 1)]
            self.top += scout
            self._choose(scout, river, top, card)
        boost = success & (action == BOOST)
        if boost.any():
            self.stuck -= boost
            self._deal(boost, 1)
        elementary = success & (action == ELEMENTARY)
        if elementary.any():
            self._elementary(elementary)
        forge = success & (action == FORGE)
        if forge.any():
            take = np.where(forge, np.minimum(2, self.pool[:, RP]), 0)
            self.pool[:, RP] -= take
            self.discard[:, RP] += take

    def _choose(
        self,
        mask: NDArray[np.bool_],
        a: NDArray[np.int8],
        b: NDArray[np.int8],
        card: NDArray[np.int8],
    ) -> None:
        """Two revealed cards: the policy resolves one; the other waits for the discard."""
        second = self.policy.pick(a, b)
        chosen = np.where(second, b, a)
        other = np.where(second, a, b)
        card[mask] = chosen[mask]
        self.pending += onehot(other, mask)

    def _elementary(self, mask: NDArray[np.bool_]) -> None:
        """Draw 3, the policy's one to the bottom, the rest shuffled back on top."""
        self._ensure(mask, 3)
        r = np.nonzero(mask)[0]
        k = np.minimum(3, self.end[r] - self.top[r])
        last = HEAD + self.width - 1
        held = np.stack([self.deck[r, np.minimum(self.top[r] + c, last)] for c in range(3)], axis=1)
        valid = np.arange(3) < k[:, None]
        bottom = self.policy.bottom(held, valid)
        rest_keys = np.where(valid, self.rng.random((len(r), 3)), 2.0)
        rest_keys[np.arange(len(r)), bottom] = 3.0
        rest = np.take_along_axis(held, np.argsort(rest_keys, axis=1), axis=1)
        self.top[r] += k
        over = r[self.end[r] >= HEAD + self.width]
        if len(over):
            self._rebuild(over, None)
        self.deck[r, self.end[r]] = held[np.arange(len(r)), bottom]
        self.end[r] += 1
        n = len(self.ids)
        for c in (1, 0):  # the last of the rest first, so the first ends on top
            put = c < k - 1
            mask_c = np.zeros(n, dtype=np.bool_)
            mask_c[r[put]] = True
            kinds = np.zeros(n, dtype=np.int8)
            kinds[r[put]] = rest[put, c]
            self._on_top(mask_c, kinds)

    def _resolve(
        self,
        player: Ints,
        card: NDArray[np.int8],
        u: NDArray[np.float64],
        done: Ints,
        in_river: NDArray[np.bool_],
    ) -> NDArray[np.bool_]:
        """Apply the revealed card; returns where a failed Slowing trap waits for the turn end.

        `in_river`: the card is still counted among the face-down cards (see `run`).
        """
        m = self.m
        keep = np.ones(len(card), dtype=np.bool_)  # the card waits for the discard pile
        is_rp = card == RP
        self.paths += is_rp
        if m.goal is not None:
            done[is_rp & (self.paths >= m.goal) & (done < 0)] = ESCAPED_PATHS
        is_de = card == DE
        keep &= ~is_de
        self.stuck += is_de
        self._overflow(is_de)
        is_mo = card == MO
        self.points += is_mo
        fight = is_mo & (self.points >= m.monster_need)
        slowing = np.zeros(len(card), dtype=np.bool_)
        if fight.any():
            self.encounters += fight
            if m.points_reset:
                self.points[fight] = 0
            x = u[:, 2]
            done[fight & (x >= m.combat[1]) & (done < 0)] = DEFEATED
            won = fight & (x < m.combat[0])
            if m.kill_monster:  # the maze is escaped: which Monster card leaves is moot
                done[won & (done < 0)] = ESCAPED_KILL
            elif m.remove_from_deck:
                self._remove_topmost_monster(won)
            else:
                keep &= ~won
        is_tr = card == TR
        if is_tr.any():
            self.traps += is_tr
            row = np.minimum(np.searchsorted(self.trap_cum, u[:, 3]), len(self.trap_cum) - 1)
            disarmed = is_tr & self.policy.disarm() & (u[:, 4] < self.p_disarm[row, player])
            self.disarmed += disarmed
            sprung = is_tr & ~disarmed
            effect = self.trap_effect[row]
            slowing = sprung & (effect == SLOWING)
            sleep = sprung & (effect == SLEEP)
            if sleep.any():
                self._add_monster(sleep & self.trap_on_top[row], "top")
                naps = sleep & (self.trap_sleep[row] > 0) & (not self.anonymous)
                rows = np.arange(len(card))
                self.asleep[rows[naps], player[naps]] = self.trap_sleep[row][naps]
        # To the discard pile at the turn's end unless taken (a stuck Dead End, a removed
        # Monster card); a card still in `down` goes there with it, so it is only taken.
        self.pending += onehot(card, card >= 0) * (keep.astype(np.int64) - in_river)[:, None]
        return slowing

    def _finish_turn(self, slowing: NDArray[np.bool_]) -> None:
        self.discard += self.pending
        self.pending[:] = 0
        if self.m.turn_timing:  # every face-down card leaves
            self.discard += counts(self.down, np.arange(RIVER) < self.nd[:, None])
            self.nd[:] = 0
        slowing = slowing & (self.pool[:, DE] > 0)
        if slowing.any():
            self.pool[:, DE] -= slowing
            self.stuck += slowing
            self._overflow(slowing)

    def _leave(self, done: Ints, turns: int, force: NDArray[np.bool_] | None = None) -> None:
        """Record the games that ended; drop ended games (at once where `force`)."""
        ended = self.alive & (done >= 0)
        if ended.any():
            gone = self.ids[ended]
            self.outcome[gone] = done[ended]
            self.result["turns"][gone] = turns
            for name in ("encounters", "traps", "disarmed"):
                self.result[name][gone] = getattr(self, name)[ended]
            self.alive &= ~ended
        drop = ~self.alive
        if force is not None:
            drop |= force
        if not drop.any() or (force is None and drop.mean() < self.COMPACT_AT):
            return
        keep = ~drop
        for name in self.fields:
            setattr(self, name, getattr(self, name)[keep])

    def run(self, max_turns: int) -> None:
        """Play every game to its end."""
        turns = 0
        while self.alive.any():
            if self.anonymous:
                player = np.zeros(len(self.ids), dtype=np.int64)
            else:
                player = self._next_players()
            turns += 1
            n = len(self.ids)
            if turns > max_turns:
                self._leave(np.full(n, TURN_LIMIT, dtype=np.int64), max_turns)
                break
            deal = np.ones(n, dtype=np.bool_) if self.m.turn_timing else self.nd == 0
            self._deal(deal, RIVER - self.nd - self.stuck, empty_river=self.m.turn_timing)
            empty = self.nd == 0
            if empty.any():
                # No card to flip: the game ends (an ended game playing on is dropped).
                keep = ~empty & self.alive
                self._leave(np.where(empty, NO_CARDS, -1), turns, force=empty)
                player = player[keep]
                n = len(self.ids)
                if not n:
                    break
            u = self.rng.random((n, 5))
            card = np.full(n, -1, dtype=np.int8)
            if self.policy.acts:
                self._act(player, card, u)
            flip = card < 0
            index = np.minimum((u[:, 0] * self.nd).astype(np.int64), np.maximum(self.nd - 1, 0))
            if self.m.turn_timing:
                # Every face-down card leaves the river at this turn's end and nothing
                # reshuffles before then, so the flipped card stays in `down` (it goes
                # with them, unless `_resolve` takes it back out of the discard).
                in_river = flip
                card = np.where(flip, self.down[np.arange(n), np.minimum(index, RIVER - 1)], card)
            else:
                in_river = np.zeros(n, dtype=np.bool_)
                card = np.where(flip, self._take_down(flip, index), card)
            done = np.full(n, -1, dtype=np.int64)
            slowing = self._resolve(player, card, u, done, in_river)
            self._finish_turn(slowing)
            self._leave(done, turns)

    def tally(self) -> Tally:
        """The batch's counts, as the scalar loop's Tally would hold them."""
        outcomes = np.bincount(self.outcome, minlength=len(OUTCOMES))
        return Tally(
            len(self.outcome),
            Counter({o: int(c) for o, c in zip(OUTCOMES, outcomes, strict=True) if c}),
            _histogram(self.result["turns"]),
            _histogram(self.result["encounters"]),
            int(self.result["traps"].sum()),
            int(self.result["disarmed"].sum()),
        )


def _histogram(values: Ints) -> Counter[int]:
    keys, counts = np.unique(values, return_counts=True)
    return Counter({int(k): int(c) for k, c in zip(keys, counts, strict=True)})


def run_batch(
    m: CompiledMaze, policy: VectorPolicy, games: int, seed: int, max_turns: int = 500
) -> Tally:
    """Play `games` games from one seed; the same arguments give the same tally.

    In batches of at most BATCH_GAMES, so memory stays bounded for any number of games.
    """
    rng = np.random.Generator(np.random.PCG64(seed))
    total = Tally()
    for start in range(0, games, BATCH_GAMES):
        batch = Batch(m, policy, min(BATCH_GAMES, games - start), rng)
        batch.run(max_turns)
        total = total.merge(batch.tally())
    return total
