"""Request path benchmark (issue 18): the service's roll against bare servers doing the same work.

A Python load generator on the same two cores saturates before the server does, so load
comes from wrk (Debian's package, installed by `make bench`) and every line is also
reported as **server CPU per request**: the server process's user + system time over
the run (from /proc through psutil; the API's embedded redis-server, a child, is not
counted), divided by the requests wrk completed.

* ``rest_roll_cpu``: `POST /v1/dice/roll` (`{"expression": "1d10!+2"}`) on `python -m
  api` against a bare Starlette endpoint doing the same work inline: read the JSON body,
  validate it into the same request model, roll it through the same service function
  (a fresh seed, the same result model) and answer its JSON. No middleware, no access
  log, no use-case adapter. Target: ours ≤ 1.5× the bare CPU (ratio ≥ 0.67).
* ``graphql_roll_cpu``: the same roll as a GraphQL query on `/graphql` against bare
  strawberry: a schema of that one field (the same union of a result and a problem,
  the same service function) served by strawberry's ASGI app with the same parse and
  validation caches. Target: ratio ≥ 0.67.
* ``rest_roll_rps`` and ``graphql_roll_rps`` (informative): wrk's requests/s for each
  pair, from the same runs.

The servers run one at a time, each for ``SECONDS`` seconds after a ``WARMUP_SECONDS``
warm-up, with ``CONNECTIONS`` connections on ``THREADS`` wrk threads, ours then the bare
one, ``ROUNDS`` times: single runs on this machine swing by ±15% with what else it runs,
so each line gives the medians and the median of the rounds' ratios (``ratios``). The
API runs with development settings (no key, no rate limit, the JSON access log at info,
the embedded Redis, one process), the bare servers under uvicorn with the options
`python -m api` passes. Output: one JSON object per line, keys as every bench here.
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
from typing import Any

import httpx
import psutil

ROOT = Path(__file__).resolve().parent.parent
SECONDS = 8
ROUNDS = 3
WARMUP_SECONDS = 2
CONNECTIONS = 32
THREADS = 2
ROLL = {"expression": "1d10!+2"}
GRAPHQL = {
    "query": '{ roll(expression: "1d10!+2") { ... on RollResult { total } '
    "... on Problem { code } } }"
}


def _serve(which: str, port: int) -> None:
    import uvicorn

    from bench.baselines import bare_servers

    app = bare_servers.starlette_app() if which == "starlette" else bare_servers.strawberry_app()
    uvicorn.run(app, host="127.0.0.1", port=port, log_config=None, access_log=False)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def _server(kind: str) -> Iterator[tuple[str, psutil.Process]]:
    """`api`, or a bare `starlette` or `strawberry` server: its URL and its process."""
    port = _free_port()
    with tempfile.TemporaryDirectory() as data:
        env = {
            **{k: v for k, v in os.environ.items() if k != "REDIS_URL"},
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "DAEDALUS_DATA_DIR": data,
            "DAEDALUS_WORKER": "0",
            "WEB_CONCURRENCY": "1",
            "PYTHONPATH": str(ROOT),
        }
        argv = (
            [sys.executable, "-m", "api"]
            if kind == "api"
            else [sys.executable, "-P", str(Path(__file__)), "--serve", kind, str(port)]
        )
        process = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                with contextlib.suppress(httpx.TransportError):
                    if httpx.post(base + "/v1/dice/roll", json=ROLL).status_code < 500:
                        break
                    if httpx.post(base + "/graphql", json=GRAPHQL).status_code < 500:
                        break
                if process.poll() is not None or time.monotonic() > deadline:
                    sys.exit(f"bench/request_path.py: the {kind} server did not start")
                time.sleep(0.2)
            yield base, psutil.Process(process.pid)
        finally:
            process.terminate()
            process.wait(timeout=30)


def _cpu(process: psutil.Process) -> float:
    """CPU seconds of the server's Python process (not its embedded redis-server)."""
    times = process.cpu_times()
    return float(times.user + times.system)


def _wrk(url: str, body: dict[str, Any], seconds: int) -> int:
    """Requests wrk completed against `url` in `seconds` (all of them 2xx)."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as script:
        script.write(
            'wrk.method = "POST"\n'
            f"wrk.body = {json.dumps(json.dumps(body))}\n"
            'wrk.headers["Content-Type"] = "application/json"\n'
        )
        script.flush()
        argv = ["wrk", f"-t{THREADS}", f"-c{CONNECTIONS}", f"-d{seconds}s", "-s", script.name]
        out = subprocess.run([*argv, url], capture_output=True, text=True, check=True).stdout
    found = re.search(r"(\d+) requests in", out)
    if found is None or "Non-2xx" in out:
        sys.exit(f"bench/request_path.py: wrk failed on {url}:\n{out}")
    return int(found.group(1))


def _measure(kind: str, path: str, body: dict[str, Any]) -> tuple[float, float]:
    """(requests/s, server CPU ms per request) of `kind` serving `path`."""
    with _server(kind) as (base, process):
        _wrk(base + path, body, WARMUP_SECONDS)
        before, started = _cpu(process), time.perf_counter()
        done = _wrk(base + path, body, SECONDS)
        elapsed, spent = time.perf_counter() - started, _cpu(process) - before
    return done / elapsed, spent * 1000 / done


def _emit(
    case: str, unit: str, rounds: list[tuple[float, float]], baseline: str, **extra: Any
) -> None:
    """One line from `rounds` of (ours, bare): the medians, and the median of the
    rounds' ratios (each round's pair measured back to back)."""
    lower_is_better = unit == "ms"
    ratios = [b / v if lower_is_better else v / b for v, b in rounds]
    value, base = median(v for v, _ in rounds), median(b for _, b in rounds)
    ratio = median(ratios)
    extra["ratios"] = [round(r, 3) for r in ratios]
    line = {
        "bench": "request_path",
        "case": case,
        "unit": unit,
        "value": round(value, 4),
        "baseline": baseline,
        "baseline_value": round(base, 4),
        "ratio": round(ratio, 3),
        **extra,
    }
    print(json.dumps({**line, "target": line.pop("target", None)}), flush=True)


def main() -> None:
    if shutil.which("wrk") is None:
        sys.exit("bench/request_path.py: wrk is missing (make bench installs Debian's wrk)")
    load = f"wrk -t{THREADS} -c{CONNECTIONS}, {SECONDS} s"
    pairs = [
        ("rest_roll", "/v1/dice/roll", ROLL, "starlette", "bare Starlette, the same roll inline"),
        ("graphql_roll", "/graphql", GRAPHQL, "strawberry", "bare strawberry, same caches"),
    ]
    for case, path, body, bare, name in pairs:
        cpu: list[tuple[float, float]] = []
        rps: list[tuple[float, float]] = []
        for _ in range(ROUNDS):
            ours_rps, ours_cpu = _measure("api", path, body)
            bare_rps, bare_cpu = _measure(bare, path, body)
            cpu.append((ours_cpu, bare_cpu))
            rps.append((ours_rps, bare_rps))
        _emit(f"{case}_cpu", "ms", cpu, name, target=0.67, load=load)
        _emit(f"{case}_rps", "req/s", rps, name, load=load)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        _serve(sys.argv[2], int(sys.argv[3]))
    else:
        main()
