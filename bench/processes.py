"""Many API processes (issue 18): requests/s of `POST /v1/dice/roll` with 2 API processes
against 1, driven by wrk (a load generator in C, so it is not the bottleneck the way a
Python client on the same cores would be).

Both servers are `python -m api` (`DAEDALUS_WORKER=0`, development settings, the
embedded Redis, a temporary data folder), started the same way, measured one after the
other for `SECONDS` seconds each after a warm-up, with `CONNECTIONS` connections on
`THREADS` wrk threads. That pair is measured `ROUNDS` times, and the ratio reported is
the median of the rounds' ratios (each round's two measurements are minutes apart at
most, so a change in what else the machine runs moves both), the requests/s the medians
of each. Also reported: the API processes' CPU per request (their user + system time
over the run, from /proc through psutil), for each.

wrk comes from Debian's package (`make bench` installs it when missing). Output: one JSON
line per case, keys as every bench here.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from statistics import median

import httpx
import psutil

ROOT = Path(__file__).resolve().parent.parent
SECONDS = 8
ROUNDS = 3
WARMUP_SECONDS = 2
CONNECTIONS = 32
THREADS = 2
SCRIPT = """wrk.method = "POST"
wrk.body = '{"expression": "1d10!+2"}'
wrk.headers["Content-Type"] = "application/json"
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def _api(processes: int) -> Iterator[tuple[str, psutil.Process]]:
    port = _free_port()
    with tempfile.TemporaryDirectory() as data:
        env = {
            **{k: v for k, v in os.environ.items() if k != "REDIS_URL"},
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "DAEDALUS_DATA_DIR": data,
            "DAEDALUS_WORKER": "0",
            "WEB_CONCURRENCY": str(processes),
        }
        process = subprocess.Popen(
            [sys.executable, "-m", "api"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                with contextlib.suppress(httpx.TransportError):
                    if httpx.get(base + "/readyz").status_code == 200:
                        break
                time.sleep(0.2)
            else:
                sys.exit(f"bench/processes.py: the API with {processes} processes did not start")
            yield base, psutil.Process(process.pid)
        finally:
            process.terminate()
            process.wait(timeout=30)


def _cpu(root: psutil.Process) -> float:
    """CPU seconds of the API's Python processes (the parent and its uvicorn workers; not
    the embedded redis-server)."""
    total = 0.0
    for proc in [root, *root.children(recursive=True)]:
        with contextlib.suppress(psutil.Error):
            if "redis-server" not in " ".join(proc.cmdline()):
                times = proc.cpu_times()
                total += times.user + times.system
    return total


def _wrk(base: str, seconds: int, script: Path) -> float:
    """Requests/s wrk reached on the roll for `seconds`."""
    out = subprocess.run(
        [
            "wrk",
            f"-t{THREADS}",
            f"-c{CONNECTIONS}",
            f"-d{seconds}s",
            "-s",
            str(script),
            f"{base}/v1/dice/roll",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if found is None or "Non-2xx" in out:
        sys.exit(f"bench/processes.py: wrk failed:\n{out}")
    return float(found.group(1))


def _measure(processes: int, script: Path) -> tuple[float, float]:
    """(requests/s, API CPU ms per request) with `processes` API processes."""
    with _api(processes) as (base, root):
        _wrk(base, WARMUP_SECONDS, script)
        before = _cpu(root)
        rps = _wrk(base, SECONDS, script)
        spent = _cpu(root) - before
    return rps, spent * 1000 / (rps * SECONDS)


def main() -> None:
    if shutil.which("wrk") is None:
        sys.exit("bench/processes.py: wrk is missing (make bench installs Debian's wrk)")
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as lua:
        lua.write(SCRIPT)
    script = Path(lua.name)
    rounds: list[tuple[tuple[float, float], tuple[float, float]]] = []
    try:
        for _ in range(ROUNDS):
            rounds.append((_measure(1, script), _measure(2, script)))
    finally:
        script.unlink()
    one_rps, one_cpu = (median(one[i] for one, _ in rounds) for i in (0, 1))
    two_rps, two_cpu = (median(two[i] for _, two in rounds) for i in (0, 1))
    ratios = [two[0] / one[0] for one, two in rounds]
    cores = len(os.sched_getaffinity(0))
    print(
        json.dumps(
            {
                "bench": "processes",
                "case": "rest_roll_2_api_processes",
                "unit": "req/s",
                "value": round(two_rps, 1),
                "baseline": "rest_roll_1_api_process",
                "baseline_value": round(one_rps, 1),
                "ratio": round(median(ratios), 3),
                "target": 1.6,
                "ratios": [round(r, 3) for r in ratios],
                "cores": cores,
                "load_generator": f"wrk -t{THREADS} -c{CONNECTIONS}",
            }
        )
    )
    print(
        json.dumps(
            {
                "bench": "processes",
                "case": "rest_roll_api_cpu_ms_per_request_2_processes",
                "unit": "ms",
                "value": round(two_cpu, 3),
                "baseline": "1 process",
                "baseline_value": round(one_cpu, 3),
                "ratio": round(one_cpu / two_cpu, 3),
                "target": None,
            }
        )
    )


if __name__ == "__main__":
    main()
