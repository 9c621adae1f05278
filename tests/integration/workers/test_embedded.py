"""What `make run` starts next to the API (workers/embedded.py): the workers and beat on the
service's Redis, stopped with it; and all of them, the embedded Redis too (the one process
that used to survive), die with the API even when it is SIGKILLed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from subprocess import Popen

import psutil
import pytest
import redis

from infra.settings import Settings
from tests.integration.workers.conftest import CLOCK_ENV, wait_until
from workers.app import REDBEAT_KEY_PREFIX
from workers.embedded import worker_alongside

PARENT = """
import time
from infra.settings import Settings
from workers.embedded import worker_alongside
with worker_alongside(Settings()):
    print("up", flush=True)
    time.sleep(600)
"""


def _redis_server(data: Path) -> psutil.Process:
    registry = json.loads((data / "redis" / "daedalus.rdb.settings").read_text())
    return psutil.Process(int(Path(registry["pidfile"]).read_text().strip()))


def test_a_killed_api_takes_its_workers_beat_and_embedded_redis_with_it(tmp_path: Path) -> None:
    # The embedded Redis, whatever the environment names: it is the one under test.
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DAEDALUS_REDIS_URL")}
    env |= {"DAEDALUS_WORKER": "1", "DAEDALUS_BEAT": "1", "DAEDALUS_DATA_DIR": str(tmp_path)}
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT],
        env=env,
        stdout=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[3],
    )
    survivors: list[psutil.Process] = []
    try:
        assert parent.stdout is not None and parent.stdout.readline().strip() == b"up"
        children = psutil.Process(parent.pid).children()
        celery = [c for c in children if "celery" in c.cmdline()]
        assert len(celery) == 3  # the simulation worker, the clock worker, beat
        server = _redis_server(tmp_path)
        assert "redis-server" in server.name()
        survivors = [*children, server]
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        _gone, alive = psutil.wait_procs(survivors, timeout=30)
        alive = [p for p in alive if p.status() != psutil.STATUS_ZOMBIE]  # exited, unreaped
        assert not alive, [p.cmdline() for p in alive]
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for process in survivors:  # orphans, if the test failed: never left running
            if process.is_running():
                process.kill()


@pytest.mark.slow
def test_the_service_starts_a_beat_next_to_its_worker_and_stops_both(
    worker_url: str, clock_worker: Popen[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in {"REDIS_URL": worker_url, "DAEDALUS_REDIS_URL": worker_url}.items():
        monkeypatch.setenv(name, value)  # restored afterwards (worker_alongside sets one)
    for name, value in CLOCK_ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("DAEDALUS_WORKER", raising=False)
    monkeypatch.delenv("DAEDALUS_BEAT", raising=False)
    lock = REDBEAT_KEY_PREFIX + ":lock"
    settings = Settings(redis_url=worker_url, broker_url=worker_url)
    with redis.Redis.from_url(worker_url) as client:
        # A lock an earlier test's beat left to lapse (one killed at its stop deadline
        # holds it for the lock's timeout) would pass for this beat's, and still be there
        # after this one stopped cleanly; so would the scan it recorded as run.
        entry = REDBEAT_KEY_PREFIX + "campaign-clock"
        client.delete(lock, entry)
        with worker_alongside(settings) as processes:
            assert processes is not None
            beat = [p for p in psutil.Process().children() if "beat" in p.cmdline()]
            assert len(beat) == 1 and "redbeat.RedBeatScheduler" in beat[0].cmdline()
            # A beat starts in a few seconds; under a full suite on two cores it has taken
            # over 20 s (CI): the bound only says when to give up.
            wait_until(lambda: bool(client.exists(lock)), 60, "beat to take its lock")
            # And past its start: redbeat records the lock on its scheduler just after
            # taking it, and a stop landing in between exits without releasing it (the
            # lock then lapses). A beat that has sent a scan holds it as its own.
            wait_until(lambda: _ran(client.hget(entry, "meta")), 60, "beat to send a scan")
        assert all(c.proc is not None and c.proc.poll() is not None for c in processes.children)
        assert not beat[0].is_running()
        stopped = next(c.proc for c in processes.children if c.proc and c.name == "beat")
        if stopped.returncode == -signal.SIGKILL:
            # Killed at the stop deadline (a loaded machine: it did not finish stopping in
            # STOP_SECONDS): its lock lapses within the lock's timeout, not later.
            lapse = float(CLOCK_ENV["DAEDALUS_BEAT_LOCK_TIMEOUT"]) + 1
            wait_until(lambda: not client.exists(lock), lapse, "the lock to lapse")
        else:
            # A beat stopped cleanly releases its lock at once.
            assert not client.exists(lock), f"the beat exited with {stopped.returncode}"


def _ran(meta: bytes | None) -> bool:
    """Whether a redbeat entry's meta says it has run."""
    return bool(meta) and json.loads(meta or b"{}").get("last_run_at") is not None
