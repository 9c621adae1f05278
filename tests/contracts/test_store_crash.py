"""kill -9 of the Redis server mid-append, with AOF on: nothing acknowledged is lost.

Runs against the embedded server, the one this process can kill and restart.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import uuid
from pathlib import Path

import redis

from services.store import NewEvent, RedisEventStore, start_embedded


def test_every_acknowledged_append_survives_a_kill_9_and_no_batch_is_torn(
    tmp_path: Path,
) -> None:
    conn = start_embedded(tmp_path, appendfsync="always")
    store = RedisEventStore(conn.client, "crash")
    acknowledged: list[list[str]] = []
    stop = threading.Event()

    def write() -> None:
        n = 0
        while not stop.is_set():
            batch = [NewEvent(str(uuid.uuid4()), "Step", {"batch": n, "k": k}) for k in range(3)]
            try:
                store.append("run", batch)
            except (redis.ConnectionError, redis.ResponseError, OSError):
                return
            acknowledged.append([e.id for e in batch])
            n += 1

    writer = threading.Thread(target=write)
    writer.start()
    time.sleep(0.5)
    os.kill(conn.embedded.pid, signal.SIGKILL)
    writer.join(timeout=10)
    stop.set()
    conn.close()  # the killed server's client and guard
    assert len(acknowledged) > 10  # the writer was really mid-stream

    restarted = start_embedded(tmp_path, appendfsync="always")
    try:
        after = RedisEventStore(restarted.client, "crash").read("run")
        assert [e.version for e in after] == list(range(1, len(after) + 1))
        stored = {e.id for e in after}
        assert all(i in stored for batch in acknowledged for i in batch)
        batches: dict[int, int] = {}
        for e in after:
            batches[e.data["batch"]] = batches.get(e.data["batch"], 0) + 1
        assert set(batches.values()) == {3}  # whole batches only
    finally:
        restarted.close()
