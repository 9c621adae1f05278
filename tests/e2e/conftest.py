"""End-to-end fixtures: the real service in a subprocess, talked to over HTTP."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil
import pytest

STARTUP_SECONDS = 60.0  # a server with two processes, on a loaded 2-core machine


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_healthy(base_url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}:\n{log.read_text()}")
        try:
            if httpx.get(f"{base_url}/healthz", timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"server not healthy after {STARTUP_SECONDS}s:\n{log.read_text()}")


# With `worker=True`: beat asks for due campaigns this often (seconds).
WORKER_SCAN_SECONDS = "0.5"


@contextlib.contextmanager
def serve(
    root: Path, extra_env: dict[str, str], *, worker: bool = False
) -> Iterator[tuple[str, Path]]:
    """Run `python -m api` on a free port with data under `root`; yield its URL and log.

    `worker=True` starts it as `make run` does, with its Celery worker and beat on the
    embedded Redis (scanning for due campaigns every WORKER_SCAN_SECONDS).
    """
    log = root / "server.log"
    port = _free_port()
    env = {
        # The server under test uses its embedded Redis, whatever REDIS_URL (or the
        # workers' DAEDALUS_REDIS_URL, which a test may have set in this process) says.
        **{k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DAEDALUS_REDIS_URL")},
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "DAEDALUS_DATA_DIR": str(root / "data"),
        "DAEDALUS_ENV": "test",
        # The API tests need no Celery worker (the worker tests start their own).
        "DAEDALUS_WORKER": "0",
        # One API process (production's default is one per core): a test that wants
        # more says so (tests/e2e/test_web_concurrency.py).
        "WEB_CONCURRENCY": "1",
        **(
            {"DAEDALUS_WORKER": "1", "DAEDALUS_TICK_SCAN_SECONDS": WORKER_SCAN_SECONDS}
            if worker
            else {}
        ),
        **extra_env,
    }
    repo = Path(__file__).resolve().parents[2]
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "api"],
            cwd=repo,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            # Its own process group, so nothing it started can outlive the test.
            start_new_session=worker,
        )
    base_url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(base_url, process, log)
        yield base_url, log
    finally:
        process.terminate()
        try:
            # With a worker, the server stops its worker and beat before it exits.
            process.wait(timeout=60 if worker else 20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if worker:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        _stop_embedded_redis(root / "data")


def _stop_embedded_redis(data: Path) -> None:
    """Stop the embedded Redis of a server that had to be killed (it would outlive it)."""
    registry = data / "redis" / "daedalus.rdb.settings"
    with contextlib.suppress(OSError, ValueError, KeyError, psutil.Error):
        pid = int(Path(json.loads(registry.read_text())["pidfile"]).read_text().strip())
        server = psutil.Process(pid)
        if "redis-server" in " ".join(server.cmdline()):
            server.terminate()
            try:
                server.wait(timeout=10)
            except psutil.TimeoutExpired:  # refusing to stop: it could not save
                server.kill()


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start `python -m api` on a free port with a temporary data folder; yield its URL."""
    with serve(tmp_path_factory.mktemp("daedalus"), {}) as (base_url, _log):
        yield base_url


@pytest.fixture
def client(server_url: str) -> Iterator[httpx.Client]:
    """An HTTP client bound to the running server."""
    with httpx.Client(base_url=server_url, timeout=30.0) as http:
        yield http
