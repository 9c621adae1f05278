"""`make run` as an operator sees it: a killed worker is replaced, a stop is quick and quiet,
and the embedded Redis never outlives the service.

Each test prints the figure it measures (run with `-s` to see them).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import psutil
import pytest
import redis

from tests.e2e.conftest import _free_port, _wait_healthy, serve

pytestmark = pytest.mark.slow

# Words that must never appear in the log of a clean stop.
NOISE = ("CRITICAL", "Traceback", "Connection to Redis lost", '"level": "error"')


def wait_until(check: Callable[[], bool], timeout: float, what: str) -> float:
    """Seconds until `check()` held; fails after `timeout`."""
    start = time.monotonic()
    while not check():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(0.05)
    return time.monotonic() - start


def redis_pid(data: Path) -> int:
    """The pid of the embedded Redis serving the data folder `data`."""
    registry = json.loads((data / "redis" / "daedalus.rdb.settings").read_text())
    return int(Path(registry["pidfile"]).read_text().strip())


def redis_client(data: Path) -> redis.Redis:
    registry = json.loads((data / "redis" / "daedalus.rdb.settings").read_text())
    return redis.Redis(unix_socket_path=registry["unixsocket"])


def exited(pid: int) -> bool:
    """Gone, or a zombie not yet reaped by init (it no longer runs)."""
    try:
        return bool(psutil.Process(pid).status() == psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return True


def simulate(http: httpx.Client, games: int) -> str:
    body = {"preset": "enchanted_forest_v1", "games": games, "seed": "ops", "chart": None}
    created = http.post("/v1/simulations", json=body)
    assert created.status_code == 202, created.text
    return str(created.json()["job_id"])


def status(http: httpx.Client, job: str) -> dict[str, object]:
    found: dict[str, object] = http.get(f"/v1/simulations/{job}").json()
    return found


def the_worker(api_pid: int) -> psutil.Process:
    """The simulation worker's main process (`-Q celery`) among the API's children."""
    for child in psutil.Process(api_pid).children():
        cmdline = child.cmdline()
        if "worker" in cmdline and "celery" in cmdline[cmdline.index("-Q") + 1 :][:1]:
            return child
    raise AssertionError("no simulation worker")


def api_pid(data: Path) -> int:
    """The pid of the `python -m api` this test started on the data folder `data`."""
    (found,) = [
        p
        for p in psutil.Process().children()
        if p.cmdline()[1:3] == ["-m", "api"] and p.environ().get("DAEDALUS_DATA_DIR") == str(data)
    ]
    return int(found.pid)


def test_a_killed_worker_is_replaced_and_its_job_finishes_once(tmp_path: Path) -> None:
    with serve(tmp_path, {}, worker=True) as (base_url, log):
        with httpx.Client(base_url=base_url, timeout=30.0) as http:
            job = simulate(http, 60_000)  # one shard of a few seconds
            wait_until(lambda: status(http, job)["games_done"] != 0, 60, "the shard to start")
            worker = the_worker(api_pid(tmp_path / "data"))
            os.kill(worker.pid, signal.SIGKILL)
            seen: list[httpx.Response] = []

            def not_ready() -> bool:
                seen.append(http.get("/readyz"))
                return seen[-1].status_code == 503

            wait_until(not_ready, 5, "readyz to say 503")
            assert seen[-1].json()["processes"]["worker"] == "restarting"
            replaced = wait_until(lambda: http.get("/readyz").status_code == 200, 30, "readyz")
            done = wait_until(lambda: status(http, job)["status"] != "running", 240, "the job")
            assert status(http, job)["status"] == "succeeded"
            writes = redis_client(tmp_path / "data").get(f"sim:job:{job}:result_writes")
        assert writes == b"1"  # the shard ran again, and the job's result was recorded once
        text = log.read_text()
        assert "worker exited with code -9; restarting it in 1 s" in text
        assert re.search(r"\d+ unfinished task\(s\) put back on the queue", text)
        print(f"\nworker kill -9: ready again after {replaced:.1f} s, job done {done:.1f} s later")


def test_stopping_after_a_simulation_is_quick_and_quiet(tmp_path: Path) -> None:
    with serve(tmp_path, {}, worker=True) as (base_url, log):
        with httpx.Client(base_url=base_url, timeout=30.0) as http:
            job = simulate(http, 2_000)
            wait_until(lambda: status(http, job)["status"] == "succeeded", 120, "the job")
        pid = api_pid(tmp_path / "data")
        server = redis_pid(tmp_path / "data")
        start = time.monotonic()
        os.kill(pid, signal.SIGTERM)
        took = wait_until(lambda: exited(pid) and exited(server), 60, "the service to stop")
        print(f"\nstop after a simulation: {took:.2f} s")
    text = log.read_text()
    assert not [word for word in NOISE if word in text], text[-3000:]
    # Beat and the workers first, then Redis (the API's own shutdown lines come before).
    redis_log = (tmp_path / "data" / "redis" / "redis.log").read_text()
    assert "Redis is now ready to exit" in redis_log
    assert took < 10, f"stopping took {took:.1f} s (start {start})"


def test_the_embedded_redis_dies_with_a_killed_service(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DAEDALUS_REDIS_URL")}
    port = _free_port()
    env |= {"HOST": "127.0.0.1", "PORT": str(port), "DAEDALUS_DATA_DIR": str(data)}
    env |= {"DAEDALUS_ENV": "test", "DAEDALUS_WORKER": "0"}
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        service = subprocess.Popen(
            [sys.executable, "-m", "api"],
            cwd=Path(__file__).resolve().parents[2],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    server = None
    try:
        _wait_healthy(f"http://127.0.0.1:{port}", service, log)
        server = redis_pid(data)
        assert not exited(server)
        service.send_signal(signal.SIGKILL)
        service.wait()
        took = wait_until(lambda: exited(server), 10, "the embedded Redis to stop")
        print(f"\nembedded Redis gone {took:.2f} s after the API's kill -9")
        assert "redis guard: process" in log.read_text()
    finally:
        if service.poll() is None:
            service.kill()
            service.wait()
        if server is not None and not exited(server):
            os.kill(server, signal.SIGKILL)
