"""Real Celery workers (and beats) as subprocesses on the embedded Redis."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from subprocess import Popen

import pytest
import redis

from services.store.connection import SingleConnection, start_embedded
from workers.app import REDBEAT_KEY_PREFIX, app, celery_url, release
from workers.jobs import Jobs


@pytest.fixture(scope="module")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SingleConnection]:
    conn = start_embedded(tmp_path_factory.mktemp("workers-redis"))
    yield conn
    conn.close()


@pytest.fixture(scope="module")
def worker_url(embedded: SingleConnection) -> Iterator[str]:
    # The test process's Celery app sends to this Redis: configure it before first use.
    url = celery_url(embedded.url)
    app.conf.update(broker_url=url, result_backend=url)
    # Another module may have used the app on its own (now stopped) Redis: close the
    # cached result backend and broker connections so both are rebuilt from the new settings.
    release(app)
    # For this module only: left set, every server a later test of this pytest worker
    # starts would inherit a Redis that is gone by then.
    before = os.environ.get("DAEDALUS_REDIS_URL")
    os.environ["DAEDALUS_REDIS_URL"] = embedded.url
    try:
        yield embedded.url
    finally:
        if before is None:
            os.environ.pop("DAEDALUS_REDIS_URL", None)
        else:
            os.environ["DAEDALUS_REDIS_URL"] = before


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
def jobs(worker_url: str, worker: subprocess.Popen[bytes]) -> Iterator[Jobs]:
    client = redis.Redis.from_url(worker_url)
    yield Jobs(client)
    client.close()
    release(app)  # the connections the test's sends opened


# --- the campaign clock: a worker and beats whose ticks use this Redis as event store ---

# Fast clocks for tests: scans every half second, a 3 s beat lock, 5 s tick leases.
CLOCK_ENV = {
    "DAEDALUS_TICK_SCAN_SECONDS": "0.5",
    "DAEDALUS_BEAT_LOCK_TIMEOUT": "3",
    "DAEDALUS_TICK_LEASE_SECONDS": "5",
}
ROOT = Path(__file__).resolve().parents[3]


def _celery(args: list[str], env: dict[str, str], log: Path | None = None) -> Popen[bytes]:
    out = None if log is None else log.open("wb")
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "workers.app", *args],
            env=env,
            cwd=ROOT,
            stdout=out,
            stderr=out,
        )
    finally:
        if out is not None:
            out.close()


def _terminate(proc: Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="module")
def clock_env(worker_url: str) -> dict[str, str]:
    """The environment of clock workers and beats: one Redis for broker and events."""
    return {**os.environ, "DAEDALUS_REDIS_URL": worker_url, "REDIS_URL": worker_url, **CLOCK_ENV}


@pytest.fixture(scope="module")
def clock_worker(clock_env: dict[str, str], worker_url: str) -> Iterator[Popen[bytes]]:
    """A real worker with two pool processes, so two ticks can run at once."""
    redis.Redis.from_url(worker_url).delete("celery", "unacked", "unacked_index")
    args = ["worker", "-c", "2", "--pool", "prefork"]
    args += ["--without-gossip", "--without-mingle", "-l", "warning"]
    proc = _celery(args, clock_env)
    yield proc
    _terminate(proc)


@dataclass
class Beat:
    """A `celery beat -S redbeat.RedBeatScheduler` process and its log."""

    proc: Popen[bytes]
    log: Path

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def holds_lock(self) -> bool:
        return "beat: Acquired lock" in self.text()

    def scans_sent(self) -> int:
        return self.text().count("Sending due task campaign-clock")


@pytest.fixture
def beats(
    clock_env: dict[str, str], worker_url: str, tmp_path: Path
) -> Iterator[Callable[[], Beat]]:
    """Start beat processes (each call one more); all are stopped after the test."""
    started: list[Beat] = []

    def start() -> Beat:
        log = tmp_path / f"beat-{len(started)}.log"
        args = ["beat", "-S", "redbeat.RedBeatScheduler", "-l", "info"]
        beat = Beat(_celery(args, clock_env, log), log)
        started.append(beat)
        return beat

    yield start
    for beat in started:
        _terminate(beat.proc)
    # A killed beat leaves its lock behind until it expires: the next test starts clean.
    redis.Redis.from_url(worker_url).delete(REDBEAT_KEY_PREFIX + ":lock")


def wait_until(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    """Return once `predicate()` holds; fail naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")
