"""The campaign clock's tasks: beat's periodic scan, and one tick per due campaign.

`campaign.scan` (sent by beat every `DAEDALUS_TICK_SCAN_SECONDS`) claims the campaigns
due now from the schedule, leasing each for `DAEDALUS_TICK_LEASE_SECONDS`, and sends one
`campaign.tick` per campaign. A tick applies every due downtime (CampaignClock.advance)
and reschedules the campaign. Ticks are idempotent per downtime, so every failure mode
ends in a retry, never a double tick: a lost or failed tick is claimed again when its
lease ends; a tick message older than its lease expires unrun, as a newer one follows.

The event store is the Redis at `REDIS_URL`, falling back to the workers' own Redis
(the settings' `event_store_url`: one embedded Redis for everything by default).
"""

from __future__ import annotations

import logging
import threading
import time
from functools import cache
from typing import Any

from infra.settings import Settings
from services.campaign import CampaignAggregate, CampaignState
from services.errors import DomainError
from services.store import RedisEventStore, check_durability
from services.store.campaigns import CampaignClock, tick_lags
from services.store.client import AnyRedis, event_store_client
from services.store.schedule import TickSchedule
from services.store.sessions import SessionService
from workers import metrics
from workers.app import app

log = logging.getLogger(__name__)

SCAN_BATCH = 500  # campaigns claimed per round trip
SCAN_MAX = 20_000  # campaigns one scan sends at most; the next scan takes the rest

_clocks: dict[str, CampaignClock] = {}
_clocks_lock = threading.Lock()


@cache
def event_store() -> AnyRedis:
    """This process's client of the event store, checked once (AOF on, no eviction)."""
    settings = Settings()
    client = event_store_client(
        settings.event_store_url, settings.redis_timeouts, "the event store's Redis"
    )
    check_durability(client, allow_unsafe=settings.redis_allow_unsafe)
    return client


@cache
def schedule() -> TickSchedule:
    """The tick schedule on the event store."""
    return TickSchedule(event_store())


def clock_for(tenant: str) -> CampaignClock:
    """The campaign clock of `tenant` in this process (built on first use, then kept)."""
    with _clocks_lock:
        clock = _clocks.get(tenant)
        if clock is None:
            store = RedisEventStore(event_store(), tenant)
            service: SessionService[CampaignState] = SessionService(store, CampaignAggregate())
            clock = _clocks[tenant] = CampaignClock(service, schedule(), tenant)
        return clock


def scan_due(now: float | None = None) -> int:
    """Claim the due campaigns and send a tick for each; how many were sent."""
    due = schedule()
    at = time.time() if now is None else now
    lease = Settings().tick_lease_seconds
    sent = 0
    while sent < SCAN_MAX:
        claimed = due.claim_due(at, min(SCAN_BATCH, SCAN_MAX - sent), lease)
        for tenant, campaign_id in claimed:
            tick.apply_async((tenant, campaign_id), expires=lease)
        sent += len(claimed)
        if len(claimed) < SCAN_BATCH:
            break
    return sent


def tick_campaign(tenant: str, campaign_id: str, now: float | None = None) -> int:
    """Apply a campaign's due downtimes; how many this call recorded."""
    clock = clock_for(tenant)
    try:
        executed = clock.advance(campaign_id, time.time() if now is None else now)
    except DomainError as exc:
        # Refused (ended, season over) or too busy: advance has rescheduled the campaign
        # from its stored state, so a later scan retries whatever is still due.
        log.warning("campaign tick refused: %s %s: %s", tenant, campaign_id, exc.code)
        return 0
    for lag in tick_lags(clock.service, executed):
        metrics.observe_tick_lag(lag)
    return len(executed)


# Registered without decorators: Celery's decorators are untyped (mypy strict). No
# results are stored (thousands of ticks a minute would fill the backend); a caller that
# wants one (tests) sends with `ignore_result=False`.
_OPTIONS: dict[str, Any] = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}
scan: Any = app.task(name="campaign.scan", **_OPTIONS)(scan_due)
tick: Any = app.task(name="campaign.tick", **_OPTIONS)(tick_campaign)
