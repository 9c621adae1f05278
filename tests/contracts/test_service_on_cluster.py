"""The whole service on a Redis Cluster: `REDIS_URL=redis+cluster://…`, two API processes.

A table is made and played through one port served by two processes, and a GraphQL
subscriber on one of them sees every move sent to either, in order: the live feed
follows the cluster's log shards. The Celery broker is one Redis beside the cluster
(`DAEDALUS_REDIS_URL`, the embedded server here), as docs/OPERATIONS.md requires.
"""

from __future__ import annotations

import statistics

import httpx
import pytest
from redis.cluster import RedisCluster

from services.store import Connection
from services.store.client import connect as redis_connect
from services.store.keys import PREFIX
from tests.e2e.conftest import serve
from tests.e2e.live_table import play_and_follow
from tests.owned_cluster import OwnedCluster

pytestmark = pytest.mark.e2e


def test_two_api_processes_on_a_cluster_play_a_table_and_feed_a_subscriber(
    cluster: OwnedCluster, embedded: Connection, tmp_path_factory: pytest.TempPathFactory
) -> None:
    env = {"REDIS_URL": cluster.url, "DAEDALUS_REDIS_URL": embedded.url, "WEB_CONCURRENCY": "2"}
    with serve(tmp_path_factory.mktemp("on-cluster"), env) as (url, _log):
        followed = play_and_follow(url, moves=10, in_order=True)
        session, latest, delays = followed.session, followed.latest, followed.delays
        with httpx.Client(base_url=url, timeout=30) as http:
            auth = {"authorization": f"Bearer {followed.gm}"}
            final = http.get(f"/v1/sessions/{session}", headers=auth)
            assert final.json()["version"] == latest
    print(
        f"\nmove to subscriber on a cluster: median {statistics.median(delays):.1f} ms, "
        f"max {max(delays):.1f} ms over {len(delays)} moves"
    )
    assert len(delays) >= 3
    # The events are in the cluster, in the sharded layout (and nowhere else).
    with redis_connect(cluster.url) as client:
        assert isinstance(client, RedisCluster)
        stored = list(client.scan_iter(match=f"{PREFIX}:{{*:$s*}}:*{session}*:events"))
        assert len(stored) == 1 and client.xlen(stored[0]) == latest
    assert not list(embedded.client.scan_iter(match=f"{PREFIX}:*{session}*"))
