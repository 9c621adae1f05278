"""The campaign clock on a real Celery worker and real redbeat beats (subprocesses).

Campaigns tick every second (IntervalCadence(every_seconds=1)). Whatever happens —
duplicated ticks, a tick racing a manual advance, two beats, a beat killed holding the
lock, beat stopped for a while — every downtime is recorded exactly once, in order.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from collections.abc import Callable, Iterator
from subprocess import Popen

import pytest
from celery.result import AsyncResult

from services.campaign import (
    AddRunner,
    CampaignAggregate,
    CampaignState,
    CreateCampaign,
    DowntimePassed,
    IntervalCadence,
    next_due_at,
    target_downtime,
)
from services.dice import SimRng
from services.maze.abilities import Ability
from services.maze.character import Character
from services.store import RedisEventStore, SingleConnection
from services.store.campaigns import CampaignClock
from services.store.client import AnyRedis
from services.store.schedule import TickSchedule
from services.store.sessions import SessionService
from tests.integration.workers.conftest import Beat, wait_until
from workers.app import app as celery_app
from workers.app import release
from workers.ticks import tick

pytestmark = pytest.mark.slow

EVERY_SECOND = IntervalCadence(every_seconds=1)


def character(name: str) -> Character:
    return Character(
        name=name,
        abilities={
            Ability.READY: 10,
            Ability.INTERACTION: 6,
            Ability.SURROUNDINGS: 12,
            Ability.NAVIGATION: 8,
        },
        skills={"Survival": 2, "Scavenge": 1, "Hardy": 1, "Medicine": 1},
    )


class Table:
    """One tenant's campaigns as the API side sees them: a session service and a clock."""

    def __init__(self, client: AnyRedis, tenant: str) -> None:
        self.client = client
        self.tenant = tenant
        self.service = self.fresh_service()
        self.schedule = TickSchedule(client)
        self.clock = CampaignClock(self.service, self.schedule, tenant, rng=lambda: SimRng(7))

    def fresh_service(self) -> SessionService[CampaignState]:
        return SessionService(RedisEventStore(self.client, self.tenant), CampaignAggregate())

    def create(self, campaign: str, anchor: float) -> None:
        """A scheduled campaign of four runners, ticking every second after `anchor`."""
        rng = SimRng(campaign)
        cmd = CreateCampaign(name=campaign, cadence=EVERY_SECOND, at=anchor)
        done = self.service.execute(campaign, cmd, rng)
        for i in range(4):
            add = AddRunner(runner=f"r{i}", character=character(f"Runner {i}"))
            done = self.service.execute(campaign, add, rng)
        self.clock.reschedule(campaign, done.state, version=done.version)

    def store_version(self, campaign: str) -> int:
        return self.service.store.version(self.service.stream(campaign))

    def state(self, campaign: str) -> CampaignState:
        return self.service.load(campaign).state

    def downtimes(self, campaign: str) -> list[DowntimePassed]:
        agg = self.service.aggregate
        events = [
            agg.decode_event(e.type, e.data)
            for e in self.service.store.read(self.service.stream(campaign))
        ]
        return [e for e in events if isinstance(e, DowntimePassed)]

    def assert_each_downtime_once(self, campaign: str) -> list[DowntimePassed]:
        """One DowntimePassed per index, indexes contiguous from 0, the counter agreeing."""
        passed = self.downtimes(campaign)
        assert [e.index for e in passed] == list(range(len(passed)))
        assert self.state(campaign).downtime == len(passed)
        return passed

    def assert_replays_to_the_clock_state(self, campaign: str) -> CampaignState:
        """A full replay equals the stored state (snapshot + tail) and its schedule entry."""
        fresh = self.fresh_service()
        replayed = fresh.replay(campaign)
        assert fresh.load(campaign) == replayed
        assert self.service.load(campaign) == replayed
        assert self.schedule.due(self.tenant, campaign) == next_due_at(replayed.state)
        return replayed.state

    def caught_up(self, campaign: str) -> bool:
        state = self.state(campaign)
        return state.downtime >= target_downtime(state, time.time())

    def unschedule(self) -> None:
        """Drop this tenant's campaigns from the schedule: later tests' beats must not
        keep ticking them."""
        key = self.schedule.key
        for raw in list(self.client.zscan_iter(key, match=f"{self.tenant}\x1f*")):
            self.client.zrem(key, raw[0])


def send_tick(tenant: str, campaign: str) -> AsyncResult:
    """A campaign.tick task as beat's scan sends it, but with its result kept."""
    result: AsyncResult = tick.apply_async((tenant, campaign), ignore_result=False)
    return result


@pytest.fixture
def table(embedded: SingleConnection, clock_worker: Popen[bytes]) -> Iterator[Table]:
    t = Table(embedded.client, "t" + uuid.uuid4().hex[:10])
    yield t
    t.unschedule()
    release(celery_app)  # the result subscriptions and broker connections of send_tick
    # The module's store pool grows when a test needs two connections at once (a WATCH
    # transaction and a read beside it): the grown pool is the fixture's, not something
    # the code under test left open. Its idle connections are closed here, so the leak
    # check sees only what the test itself leaves.
    embedded.client.connection_pool.disconnect()
    if embedded.embedded is not None:
        embedded.embedded.connection_pool.disconnect()


# Long enough a backlog (downtimes due) that two ticks applying it overlap in time.
BACKLOG = 700


def assert_overlapped(split: tuple[int, int], passed: int) -> None:
    """Both ticks recorded downtimes of the backlog they both set out to apply.

    Run one after the other, the first would apply every downtime due when it started
    (at least BACKLOG), and the second only those that fell due after: at most
    `passed - BACKLOG`. The counts tell, not the ticks' stamps: two processes can read
    the same clock value (a coarse clock source, or starts within the float's 0.24 µs).
    """
    assert min(split) > passed - BACKLOG, f"the ticks did not overlap: {split} of {passed}"


def test_a_tick_delivered_twice_at_once_applies_each_downtime_once(table: Table) -> None:
    table.create("dup", anchor=time.time() - BACKLOG - 0.5)
    first, second = send_tick(table.tenant, "dup"), send_tick(table.tenant, "dup")
    split = first.get(timeout=60), second.get(timeout=60)
    # Two results waited on at once leave the result backend's pub/sub connection open
    # in this process: close it now, as the API does (workers.client.stop_sending_jobs).
    release(celery_app)
    passed = table.assert_each_downtime_once("dup")
    assert len(passed) >= BACKLOG
    assert sum(split) == len(passed), split  # between them, each downtime recorded once
    assert_overlapped(split, len(passed))
    assert all(e.due_at is not None and e.at >= e.due_at for e in passed)
    table.assert_replays_to_the_clock_state("dup")


@pytest.mark.parametrize("manual", [False, True], ids=["scheduled", "through"])
def test_a_tick_racing_a_manual_advance_applies_each_downtime_once(
    table: Table, manual: bool
) -> None:
    table.create("race", anchor=time.time() - BACKLOG - 0.5)
    result = send_tick(table.tenant, "race")
    # Start while the worker is applying the backlog, so the two really race.
    wait_until(lambda: table.store_version("race") > 5, 30, "the worker to start")
    now = time.time()
    through = target_downtime(table.state("race"), now) + 5 if manual else None
    local = table.clock.advance("race", now, through=through)
    remote = result.get(timeout=60)
    passed = table.assert_each_downtime_once("race")
    assert len(passed) >= BACKLOG
    assert len(local) + remote == len(passed), (len(local), remote)
    state = table.assert_replays_to_the_clock_state("race")
    if through is not None:  # the GM's advance went past the schedule
        assert state.downtime == through


def test_two_beats_at_once_send_each_scan_once(table: Table, beats: Callable[[], Beat]) -> None:
    table.create("two-beats", anchor=time.time())
    first, second = beats(), beats()
    wait_until(lambda: first.holds_lock() or second.holds_lock(), 20, "a beat to take the lock")
    started = time.time()
    wait_until(lambda: table.state("two-beats").downtime >= 5, 20, "five downtimes")
    elapsed = time.time() - started
    holder, standby = (first, second) if first.holds_lock() else (second, first)
    assert not standby.holds_lock() and standby.scans_sent() == 0
    # Scans every 0.5 s from one beat only (two would send about twice as many).
    assert 1 <= holder.scans_sent() <= elapsed / 0.5 + 4
    wait_until(lambda: table.caught_up("two-beats"), 10, "the clock to catch up")
    table.assert_each_downtime_once("two-beats")
    table.assert_replays_to_the_clock_state("two-beats")


def test_killing_the_beat_that_holds_the_lock_hands_over_to_the_standby(
    table: Table, beats: Callable[[], Beat]
) -> None:
    table.create("failover", anchor=time.time())
    first = beats()
    wait_until(first.holds_lock, 20, "the first beat to take the lock")
    second = beats()
    wait_until(lambda: table.state("failover").downtime >= 2, 20, "two downtimes")
    assert not second.holds_lock()
    os.kill(first.proc.pid, signal.SIGKILL)
    first.proc.wait()
    killed_at = table.state("failover").downtime
    # The lock (3 s) expires; the standby polls it every loop (1 s) and takes over.
    wait_until(second.holds_lock, 30, "the standby beat to take the lock")  # slow when loaded
    wait_until(lambda: table.state("failover").downtime >= killed_at + 3, 15, "ticks to resume")
    wait_until(lambda: table.caught_up("failover"), 10, "the clock to catch up")
    table.assert_each_downtime_once("failover")
    table.assert_replays_to_the_clock_state("failover")


def _settled(read: Callable[[], int], within: float, what: str, quiet: float = 1.0) -> int:
    """`read()` once it has not changed for `quiet` seconds (within `within` seconds)."""
    deadline = time.monotonic() + within
    value, since = read(), time.monotonic()
    while time.monotonic() - since < quiet:
        assert time.monotonic() < deadline, f"{what}: still changing after {within} s"
        time.sleep(0.1)
        if (now := read()) != value:
            value, since = now, time.monotonic()
    return value


def test_missed_ticks_are_caught_up_in_order_when_beat_returns(
    table: Table, beats: Callable[[], Beat]
) -> None:
    table.create("catch-up", anchor=time.time())
    first = beats()
    wait_until(lambda: table.state("catch-up").downtime >= 2, 20, "two downtimes")
    first.proc.send_signal(signal.SIGTERM)  # a clean stop releases the lock
    first.proc.wait(timeout=20)
    # A scan already sent may still tick (two hops through a worker, slow when loaded):
    # the count is read once it has held for a second.
    stopped_at = _settled(lambda: table.state("catch-up").downtime, 20, "the last tick")
    time.sleep(3.5)
    assert table.state("catch-up").downtime == stopped_at  # no beat, no ticks
    missed = target_downtime(table.state("catch-up"), time.time()) - stopped_at
    assert missed >= 3
    second = beats()
    wait_until(second.holds_lock, 20, "the new beat to take the lock")
    wait_until(lambda: table.caught_up("catch-up"), 10, "the clock to catch up")
    passed = table.assert_each_downtime_once("catch-up")
    dues = [e.due_at for e in passed if e.due_at is not None]
    assert len(dues) == len(passed)
    assert dues == sorted(dues) and len(set(dues)) == len(dues)
    late = passed[stopped_at : stopped_at + missed]
    # Caught up by the first tick after beat returned, in order, each recording how late.
    assert len({e.at for e in late}) == 1
    assert all(e.due_at is not None and e.at >= e.due_at for e in late)
    assert late[0].due_at is not None and late[0].at - late[0].due_at > 2.5
    table.assert_replays_to_the_clock_state("catch-up")
