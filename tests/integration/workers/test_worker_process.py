"""The workers `make run` starts die with the API, even when the API is SIGKILLed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import redis

from workers.app import REDBEAT_KEY_PREFIX

PARENT = """
import sys, time
from infra.settings import Settings
from api.worker_process import worker_alongside
url = sys.argv[1]
with worker_alongside(Settings(redis_url=url, broker_url=url)):
    print("up", flush=True)
    time.sleep(600)
"""


def test_a_killed_api_takes_its_workers_and_beat_with_it(worker_url: str) -> None:
    env = {**os.environ, "DAEDALUS_WORKER": "1", "DAEDALUS_BEAT": "1"}
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, worker_url],
        env=env,
        stdout=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[3],
    )
    children: list[psutil.Process] = []
    try:
        assert parent.stdout is not None and parent.stdout.readline().strip() == b"up"
        children = psutil.Process(parent.pid).children()
        assert len(children) == 3  # the simulation worker, the clock worker, beat
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        _gone, alive = psutil.wait_procs(children, timeout=30)
        assert not alive, [p.cmdline() for p in alive]
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for child in children:  # orphans, if the test failed: never left running
            if child.is_running():
                child.kill()
    time.sleep(0.1)
    redis.Redis.from_url(worker_url).delete(REDBEAT_KEY_PREFIX + ":lock")
