"""Fair-roll nonces on real Redis (the embedded one, and CI's when REDIS_URL is set)."""

from __future__ import annotations

import threading

import pytest

from services.dice.fair import CommitmentError
from services.store import RedisEventStore
from services.store.fairrolls import FairRolls

# Runs on one Redis and on a three-master Redis Cluster (tests/contracts/conftest.py).
ON_CLUSTER = True

EXPIRES = 4_000_000_000  # far ahead: the record outlives the test's cleanup


def _rolls(store: RedisEventStore) -> FairRolls:
    return FairRolls(store.client, store.keys)


def test_a_nonce_rolls_once_and_a_retry_of_the_same_roll_answers_again(
    store: RedisEventStore,
) -> None:
    rolls = _rolls(store)
    rolls.claim("c1", 0, '["seed", "1d20"]', 10, EXPIRES)
    rolls.claim("c1", 0, '["seed", "1d20"]', 10, EXPIRES)  # a retry: nothing changes
    for other in ('["other seed", "1d20"]', '["seed", "1d20+1"]'):
        with pytest.raises(CommitmentError) as refused:
            rolls.claim("c1", 0, other, 10, EXPIRES)
        assert refused.value.code == "nonce_used"
    rolls.claim("c2", 0, '["other seed", "1d20"]', 10, EXPIRES)  # another commitment
    assert rolls.used("c1") == [0] and rolls.used("c2") == [0]
    assert store.client.ttl(store.keys.fair_rolls("c1")) > 0


def test_a_commitment_rolls_at_most_its_budget(store: RedisEventStore) -> None:
    rolls = _rolls(store)
    for nonce in range(3):
        rolls.claim("c", nonce, "r", 3, EXPIRES)
    with pytest.raises(CommitmentError) as refused:
        rolls.claim("c", 3, "r", 3, EXPIRES)
    assert refused.value.code == "commitment_exhausted"
    rolls.claim("c", 2, "r", 3, EXPIRES)  # a retry still answers at the budget
    assert rolls.used("c") == [0, 1, 2]


def test_racing_claims_of_one_nonce_with_different_rolls_let_exactly_one_through(
    store: RedisEventStore,
) -> None:
    rolls = _rolls(store)
    barrier = threading.Barrier(8)
    won: list[str] = []

    def claim(i: int) -> None:
        barrier.wait()
        try:
            rolls.claim("race", 7, f"seed {i}", 100, EXPIRES)
            won.append(f"seed {i}")
        except CommitmentError as exc:
            assert exc.code == "nonce_used"

    threads = [threading.Thread(target=claim, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(won) == 1
    assert rolls.used("race") == [7]
