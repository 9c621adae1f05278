"""What `make run` starts dies with the API, even when the API is SIGKILLed: the workers,
beat and the embedded Redis (the one process that used to survive)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import psutil

PARENT = """
import time
from infra.settings import Settings
from api.worker_process import worker_alongside
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
