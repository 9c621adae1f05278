"""The campaign clock on a real Redis: catch-ups stop where the latest cadence says."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.campaign import (
    CampaignAggregate,
    CampaignState,
    CreateCampaign,
    IntervalCadence,
    ManualCadence,
    SetCadence,
)
from services.dice import SystemRng
from services.store import RedisEventStore
from services.store.campaigns import CampaignClock
from services.store.client import connect
from services.store.schedule import TickSchedule
from services.store.sessions import Executed, SessionService

ANCHOR = 1_767_225_600.0

# Runs on one Redis and on a three-master Redis Cluster (tests/contracts/conftest.py).
ON_CLUSTER = True


@pytest.fixture
def schedule(redis_url: str, tenant: str) -> Iterator[TickSchedule]:
    client = connect(redis_url)
    s = TickSchedule(client, key=f"daedalus:test:{tenant}:due")
    yield s
    client.delete(s.key, s.versions_key)
    client.close()


class GmTurnsTheClockOff(CampaignClock):
    """A clock during whose catch-up the GM sets the cadence to manual, after one tick."""

    def _tick(
        self, campaign_id: str, index: int, now: float, *, scheduled: bool = False
    ) -> Executed[CampaignState]:
        done = super()._tick(campaign_id, index, now, scheduled=scheduled)
        if index == 0:
            manual = SetCadence(cadence=ManualCadence(), at=now)
            self.service.execute(campaign_id, manual, SystemRng())
        return done


def test_a_catch_up_stops_when_the_gm_sets_the_cadence_to_manual(
    store: RedisEventStore, schedule: TickSchedule, tenant: str
) -> None:
    service = SessionService(store, CampaignAggregate())
    create = CreateCampaign(name="Glade", cadence=IntervalCadence(every_seconds=60), at=ANCHOR)
    service.execute("c1", create, SystemRng())
    clock = GmTurnsTheClockOff(service, schedule, tenant)
    done = clock.advance("c1", ANCHOR + 10 * 60)  # ten downtimes due
    assert len(done) == 1
    state = service.load("c1").state
    assert state.downtime == 1 and state.cadence == ManualCadence()
    assert schedule.due(tenant, "c1") is None  # manual: off the schedule


def test_a_catch_up_applies_every_due_downtime_in_order(
    store: RedisEventStore, schedule: TickSchedule, tenant: str
) -> None:
    service = SessionService(store, CampaignAggregate())
    create = CreateCampaign(name="Glade", cadence=IntervalCadence(every_seconds=60), at=ANCHOR)
    service.execute("c1", create, SystemRng())
    done = CampaignClock(service, schedule, tenant).advance("c1", ANCHOR + 10 * 60)
    assert [e.events[0].data["index"] for e in done] == list(range(10))
    assert schedule.due(tenant, "c1") == ANCHOR + 11 * 60
