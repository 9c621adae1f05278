"""The campaign clock with its event store on a Redis Cluster: a real worker, a real beat.

`REDIS_URL` names a three-master cluster (tests/owned_cluster.py): the campaigns'
streams, snapshots and the tick schedule live there, as in production on a cluster;
Celery's broker, its results and redbeat's lock stay on one Redis (`DAEDALUS_REDIS_URL`,
the module's embedded one), as docs/OPERATIONS.md requires. What holds on one Redis
(tests/integration/workers/test_ticks.py) must hold here: every downtime once, in order,
however the ticks arrive.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from subprocess import Popen

import pytest
from redis.cluster import RedisCluster

from services.store.client import connect
from tests.integration.workers.conftest import Beat, wait_until
from tests.integration.workers.test_ticks import BACKLOG, Table, assert_overlapped, send_tick
from tests.owned_cluster import OwnedCluster, formed_cluster
from workers.app import app as celery_app
from workers.app import release

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[OwnedCluster]:
    with formed_cluster(tmp_path_factory.mktemp("ticks-cluster")) as owned:
        yield owned


@pytest.fixture(scope="module")
def clock_env(clock_env: dict[str, str], cluster: OwnedCluster) -> dict[str, str]:
    """The clock's processes (the conftest's worker and beats): events and schedule on the
    cluster, Celery on the module's one Redis."""
    return {**clock_env, "REDIS_URL": cluster.url}


@pytest.fixture(scope="module")
def cluster_client(cluster: OwnedCluster) -> Iterator[RedisCluster]:
    client = connect(cluster.url)
    assert isinstance(client, RedisCluster)
    yield client
    client.close()


@pytest.fixture
def table(cluster_client: RedisCluster, clock_worker: Popen[bytes]) -> Iterator[Table]:
    t = Table(cluster_client, "t" + uuid.uuid4().hex[:10])
    yield t
    t.unschedule()
    release(celery_app)  # the result subscriptions and broker connections of send_tick
    # The module's client connects to each master as a test first needs it: those
    # connections are the fixture's, closed here so the leak check sees the test's own.
    cluster_client.disconnect_connection_pools()  # type: ignore[no-untyped-call]


def test_the_store_under_test_is_the_cluster(table: Table) -> None:
    # Guards the tests below against passing on a single Redis by mistake.
    assert table.service.store.cluster and table.service.store.keys.shards > 1
    assert "{" in table.schedule.key  # the schedule's set and versions share one slot


def test_a_tick_delivered_twice_at_once_applies_each_downtime_once(table: Table) -> None:
    table.create("dup", anchor=time.time() - BACKLOG - 0.5)
    first, second = send_tick(table.tenant, "dup"), send_tick(table.tenant, "dup")
    split = first.get(timeout=60), second.get(timeout=60)
    release(celery_app)  # the result backend's pub/sub connection, as the API closes it
    passed = table.assert_each_downtime_once("dup")
    assert len(passed) >= BACKLOG
    assert sum(split) == len(passed), split  # between them, each downtime recorded once
    assert_overlapped(split, len(passed))
    table.assert_replays_to_the_clock_state("dup")


def test_a_beat_on_the_cluster_schedule_ticks_a_campaign_in_order(
    table: Table, beats: Callable[[], Beat]
) -> None:
    # Three downtimes already due when the beat starts, then one a second: the beat
    # scans the cluster's schedule, the worker applies them there.
    table.create("clock", anchor=time.time() - 3.5)
    beat = beats()
    wait_until(beat.holds_lock, 20, "the beat to take the lock")
    wait_until(lambda: table.state("clock").downtime >= 6, 30, "six downtimes")
    wait_until(lambda: table.caught_up("clock"), 10, "the clock to catch up")
    passed = table.assert_each_downtime_once("clock")
    dues = [e.due_at for e in passed]
    assert None not in dues and dues == sorted(dues)  # type: ignore[type-var]
    assert len(set(dues)) == len(dues)
    assert all(e.due_at is not None and e.at >= e.due_at for e in passed)
    assert beat.scans_sent() >= 1
    table.assert_replays_to_the_clock_state("clock")
