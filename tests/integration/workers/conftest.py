"""A real Celery worker (a subprocess) on the embedded Redis."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from services.store.connection import Connection, start_embedded
from workers.app import app, celery_url
from workers.jobs import Jobs


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Connection]:
    conn = start_embedded(tmp_path_factory.mktemp("workers-redis"))
    yield conn
    conn.close()


@pytest.fixture(scope="module")
def worker_url(embedded: Connection) -> str:
    # The test process's Celery app sends to this Redis: configure it before first use.
    url = celery_url(embedded.url)
    app.conf.update(broker_url=url, result_backend=url)
    os.environ["DAEDALUS_REDIS_URL"] = embedded.url
    return embedded.url


@pytest.fixture(scope="module")
def worker(worker_url: str) -> Iterator[subprocess.Popen[bytes]]:
    redis.Redis.from_url(worker_url).delete("celery", "unacked", "unacked_index")
    env = {**os.environ, "DAEDALUS_REDIS_URL": worker_url}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "workers.app",
            "worker",
            "-c",
            "1",
            "--pool",
            "prefork",
            "--without-gossip",
            "--without-mingle",
            "-l",
            "warning",
        ],
        env=env,
        cwd=Path(__file__).resolve().parents[3],
    )
    yield proc
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture
def jobs(worker_url: str, worker: subprocess.Popen[bytes]) -> Jobs:
    return Jobs(redis.Redis.from_url(worker_url))
