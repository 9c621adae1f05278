"""The whole service on a Redis Cluster: `REDIS_URL=redis+cluster://…`, two API processes.

A table is made and played through one port served by two processes, and a GraphQL
subscriber on one of them sees every move sent to either, in order: the live feed
follows the cluster's log shards. The Celery broker is one Redis beside the cluster
(`DAEDALUS_REDIS_URL`, the embedded server here), as docs/OPERATIONS.md requires.
"""

from __future__ import annotations

import json
import statistics
import time

import httpx
import pytest
from redis.cluster import RedisCluster
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

from services.store import Connection
from services.store.client import connect as redis_connect
from services.store.keys import PREFIX
from tests.e2e.conftest import serve
from tests.e2e.test_web_concurrency import FOLLOW, _move, _version
from tests.owned_cluster import OwnedCluster

pytestmark = pytest.mark.e2e


def test_two_api_processes_on_a_cluster_play_a_table_and_feed_a_subscriber(
    cluster: OwnedCluster, embedded: Connection, tmp_path_factory: pytest.TempPathFactory
) -> None:
    env = {"REDIS_URL": cluster.url, "DAEDALUS_REDIS_URL": embedded.url, "WEB_CONCURRENCY": "2"}
    with serve(tmp_path_factory.mktemp("on-cluster"), env) as (url, _log):
        party = [{"id": "p1", "name": "Ash"}, {"id": "p2", "name": "Bryn"}]
        with httpx.Client(base_url=url, timeout=30) as http:
            made = http.post("/v1/sessions", json={"preset": "standard_deck", "party": party})
            assert made.status_code == 201, made.text
            session, gm = made.json()["session_id"], made.json()["gm_token"]
            players = {
                m["id"]: http.post(
                    f"/v1/sessions/{session}/tokens",
                    json={"role": "player", "member": m["id"]},
                    headers={"authorization": f"Bearer {gm}"},
                ).json()["token"]
                for m in party
            }
            ws: ClientConnection = connect(
                url.replace("http", "ws", 1) + "/graphql",
                subprotocols=[Subprotocol("graphql-transport-ws")],
                open_timeout=10,
            )
            with ws:
                ws.send(json.dumps({"type": "connection_init"}))
                assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
                payload = {"query": FOLLOW, "variables": {"id": session, "t": gm}}
                ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
                latest = 0
                while latest < made.json()["version"]:  # the catch-up
                    latest = _version(ws.recv(timeout=10))
                delays = []
                for _ in range(10):
                    if not _move(http, session, gm, players):
                        break
                    answered = time.perf_counter()
                    version = _version(ws.recv(timeout=10))  # the move's first event
                    delays.append(max(0.0, time.perf_counter() - answered) * 1000)
                    assert version == latest + 1
                    while True:  # the rest of the move's events, in order
                        try:
                            message = ws.recv(timeout=0.3)
                        except TimeoutError:
                            break
                        if json.loads(message)["type"] == "complete":
                            break
                        assert _version(message) == version + 1
                        version = _version(message)
                    latest = version
            final = http.get(f"/v1/sessions/{session}", headers={"authorization": f"Bearer {gm}"})
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
