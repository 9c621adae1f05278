"""kill -9 of the Redis server mid-append, with the shipped AOF setting (`everysec`).

What `appendfsync everysec` promises (docs/STORE.md, "Durability"): Redis writes each
command to its AOF before it answers (except while a slow fsync holds writes back, for
at most 2 s) and fsyncs once a second. So an acknowledged append is lost only if it was
among the last seconds before the crash; everything acknowledged earlier survives. And
the AOF is replayed in order: what survives is a prefix of what was appended — versions
contiguous, no batch torn. The test asserts exactly that, against the embedded server,
the one this process can kill and restart.
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

# Acknowledged longer ago than this before the kill: must survive (1 s of fsync interval,
# plus up to 1 s more while a slow fsync holds the AOF write back).
SAFE_AGE = 2.0


def test_every_append_acknowledged_before_the_last_seconds_survives_a_kill_9_in_order(
    tmp_path: Path,
) -> None:
    conn = start_embedded(tmp_path)  # the shipped setting: appendfsync everysec
    assert conn.client.config_get("appendfsync")["appendfsync"] == "everysec"
    store = RedisEventStore(conn.client, "crash")
    acknowledged: list[tuple[float, list[str]]] = []
    stop = threading.Event()

    def write() -> None:
        n = 0
        while not stop.is_set():
            batch = [NewEvent(str(uuid.uuid4()), "Step", {"batch": n, "k": k}) for k in range(3)]
            try:
                store.append("run", batch)
            except (redis.ConnectionError, redis.ResponseError, OSError):
                return
            acknowledged.append((time.monotonic(), [e.id for e in batch]))
            n += 1

    writer = threading.Thread(target=write)
    writer.start()
    time.sleep(SAFE_AGE + 1.5)  # long enough that early appends are past the window
    killed_at = time.monotonic()
    os.kill(conn.embedded.pid, signal.SIGKILL)
    writer.join(timeout=10)
    stop.set()
    old = [ids for at, ids in acknowledged if at < killed_at - SAFE_AGE]
    conn.close()  # the killed server's client and guard
    assert len(old) > 10  # the writer was really mid-stream, long enough

    restarted = start_embedded(tmp_path)
    try:
        after = RedisEventStore(restarted.client, "crash").read("run")
        assert [e.version for e in after] == list(range(1, len(after) + 1))
        stored = [e.id for e in after]
        # Every append acknowledged before the window survives...
        assert stored[: 3 * len(old)] == [i for ids in old for i in ids]
        # ...and what survives is a prefix of the appends, in order: the acknowledged ones,
        # then at most the one batch that was written but not yet answered.
        written = [i for _, ids in acknowledged for i in ids]
        assert stored[: len(written)] == written[: len(stored)]
        assert len(stored) <= len(written) + 3
        batches: dict[int, int] = {}
        for e in after:
            batches[e.data["batch"]] = batches.get(e.data["batch"], 0) + 1
        assert set(batches.values()) == {3}  # whole batches only
    finally:
        restarted.close()
