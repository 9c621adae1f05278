"""The tick schedule's contract, against every real Redis at hand (see conftest.py)."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator

import pytest

from services.store.client import connect
from services.store.schedule import TickSchedule

NOW = 1_767_225_600.25  # 2026-01-01T00:00:00.25Z

# Runs on one Redis and on a three-master Redis Cluster (tests/contracts/conftest.py).
ON_CLUSTER = True


@pytest.fixture
def schedule(redis_url: str, tenant: str) -> Iterator[TickSchedule]:
    """A schedule under a key of its own; removed afterwards."""
    client = connect(redis_url)
    s = TickSchedule(client, key=f"daedalus:test:{tenant}:due")
    yield s
    client.delete(s.key, s.versions_key)
    client.close()


def test_a_due_time_is_stored_exactly_and_none_unschedules(schedule: TickSchedule) -> None:
    schedule.set_due("acme", "c1", NOW + 0.123456789)
    schedule.set_due("acme", "c2", NOW)
    assert schedule.due("acme", "c1") == NOW + 0.123456789
    assert len(schedule) == 2
    schedule.set_due("acme", "c1", None)
    assert schedule.due("acme", "c1") is None
    assert len(schedule) == 1


def test_tenants_do_not_share_entries(schedule: TickSchedule) -> None:
    schedule.set_due("acme", "c1", NOW)
    schedule.set_due("other", "c1", NOW + 5)
    assert schedule.due("acme", "c1") == NOW
    assert schedule.due("other", "c1") == NOW + 5
    assert schedule.claim_due(NOW, 10, 30) == [("acme", "c1")]


def test_claiming_takes_due_campaigns_oldest_first_up_to_the_limit(
    schedule: TickSchedule,
) -> None:
    for i in range(5):
        schedule.set_due("acme", f"c{i}", NOW - i)
    schedule.set_due("acme", "later", NOW + 1)
    claimed = schedule.claim_due(NOW, 3, 30)
    assert claimed == [("acme", "c4"), ("acme", "c3"), ("acme", "c2")]
    assert schedule.claim_due(NOW, 10, 30) == [("acme", "c1"), ("acme", "c0")]
    assert schedule.claim_due(NOW, 10, 30) == []
    assert schedule.due("acme", "later") == NOW + 1


def test_a_claim_leases_the_campaign_until_the_lease_ends(schedule: TickSchedule) -> None:
    schedule.set_due("acme", "c1", NOW - 10)
    assert schedule.claim_due(NOW, 10, 30) == [("acme", "c1")]
    assert schedule.due("acme", "c1") == NOW + 30
    assert schedule.claim_due(NOW + 29.9, 10, 30) == []
    # The tick never ran (its task was lost): the campaign is claimed again.
    assert schedule.claim_due(NOW + 30, 10, 30) == [("acme", "c1")]


def test_a_tick_that_ran_replaces_the_lease_with_the_next_due_time(
    schedule: TickSchedule,
) -> None:
    schedule.set_due("acme", "c1", NOW, version=4)
    schedule.claim_due(NOW, 10, 30)
    assert schedule.set_due("acme", "c1", NOW + 1, version=4)
    assert schedule.due("acme", "c1") == NOW + 1


def test_an_older_version_never_overwrites_a_newer_one(schedule: TickSchedule) -> None:
    assert schedule.set_due("acme", "c1", NOW + 60, version=7)
    assert not schedule.set_due("acme", "c1", NOW + 600, version=6)
    assert schedule.due("acme", "c1") == NOW + 60
    assert schedule.set_due("acme", "c1", None, version=8)
    # A slow writer cannot bring back an ended campaign.
    assert not schedule.set_due("acme", "c1", NOW, version=7)
    assert schedule.due("acme", "c1") is None
    schedule.forget("acme", "c1")
    assert schedule.set_due("acme", "c1", NOW, version=1)


def test_the_oldest_due_time_is_the_lag_source(schedule: TickSchedule) -> None:
    assert schedule.oldest_due(NOW) is None
    schedule.set_due("acme", "c1", NOW - 3)
    schedule.set_due("acme", "c2", NOW - 7.5)
    schedule.set_due("acme", "c3", NOW + 9)
    assert schedule.oldest_due(NOW) == NOW - 7.5
    schedule.claim_due(NOW, 1, 30)
    assert schedule.oldest_due(NOW) == NOW - 3


def test_names_with_the_separator_are_refused(schedule: TickSchedule) -> None:
    with pytest.raises(ValueError):
        schedule.set_due("ac\x1fme", "c1", NOW)
    with pytest.raises(ValueError):
        schedule.set_due("acme", "", NOW)
    with pytest.raises(ValueError):
        schedule.claim_due(NOW, 1, 0)


def test_racing_schedulers_claim_every_campaign_exactly_once(
    schedule: TickSchedule, redis_url: str
) -> None:
    campaigns = 2_000
    pipe = schedule.client.pipeline(transaction=False)
    for i in range(campaigns):
        pipe.zadd(schedule.key, {f"acme\x1fc{i}": NOW - i % 97})
    pipe.execute()
    claims: Counter[tuple[str, str]] = Counter()
    lock = threading.Lock()
    start = threading.Barrier(8)

    def scheduler() -> None:
        mine = TickSchedule(connect(redis_url), key=schedule.key)
        start.wait()
        while batch := mine.claim_due(NOW, 25, 60):
            with lock:
                claims.update(batch)
        mine.client.close()

    threads = [threading.Thread(target=scheduler) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(claims) == campaigns
    assert set(claims.values()) == {1}
    assert schedule.oldest_due(NOW) is None
