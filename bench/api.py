"""API benchmark: the running service against a bare Starlette endpoint (issue 6).

What it measures, each line against a baseline measured in the same run:

* ``rest_roll``: requests/s of ``POST /v1/dice/roll`` (``{"expression": "1d10!+2"}``)
  against a bare Starlette endpoint that reads the same JSON body and answers a small
  JSON object. Target: at least 0.5 of the bare throughput.
* ``graphql_roll``: requests/s of the same roll as a GraphQL query on ``POST /graphql``
  against the same bare endpoint. Target: at least 0.25.
* ``graphql_flip_p99``: p99 latency of the ``sendCommand`` mutation flipping a card, with
  ``SESSIONS`` sessions played at once (each by its own player token, one request in
  flight per session). The baseline is the issue's budget, 25 ms; ratio = 25 / p99,
  target 1. A session that leaves the flip-only part of the game (a trap, a monster, a
  choice, the end) is replaced by a new one, outside the timings.
* ``rest_flip_p99`` (informative): the same flips over ``POST /v1/sessions/{id}/commands``.
* ``graphql_flip_p99_one_flip_per_0.5s_per_session`` (informative): the same GraphQL
  flips with each session flipping once every ``TABLE_PACE`` seconds (open loop,
  staggered: 100 flips/s offered) — a table's pace rather than a closed loop, in which
  50 requests are always queued and p99 is at least 50 times the server's CPU per flip.

Both servers are started here the same way, in subprocesses on free loopback ports:
``python -m api`` (``DAEDALUS_WORKER=0``, development settings: no API key, no rate
limit, the JSON access log at level info, the embedded Redis, a temporary data folder)
and ``python bench/api.py --bare PORT`` (uvicorn with the same options ``python -m api``
passes). Load comes from one ``httpx.AsyncClient`` in this process with ``CONCURRENCY``
requests in flight (a closed loop: each worker sends its next request when the last one
answers). The throughput cases run interleaved (bare, REST, GraphQL) for ``ROUNDS``
rounds of ``REQUESTS`` requests after a warm-up; each keeps its best round, whose
p50/p99 are reported too. The whole benchmark takes about a minute on a 2-core machine.

Output: one JSON object per line, with the keys ``bench``, ``case``, ``unit``,
``value`` (ours), ``baseline``, ``baseline_value``, ``ratio`` (``value /
baseline_value`` for rates, ``baseline_value / value`` for times) and ``target`` (the
ratio the issue asks for, or null for informative lines), plus ``p50_ms``/``p99_ms``
(and the baseline's) where they apply.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psutil

ROOT = Path(__file__).resolve().parents[1]
CONCURRENCY = 50
SESSIONS = 50
REQUESTS = 2000
WARMUP = 300
ROUNDS = 3
FLIPS = 1000
FLIP_BUDGET_MS = 25.0
TABLE_PACE = 0.5  # seconds between a session's flips in the paced case: a brisk table
STARTUP_SECONDS = 60.0
ROLL_BODY = {"expression": "1d10!+2"}
GRAPHQL_ROLL = {
    "query": '{ roll(expression: "1d10!+2") { ... on RollResult { total } '
    "... on DiceProblem { code } } }"
}
FLIP_MUTATION = """mutation($id: ID!, $t: String!, $c: JSON!) {
  sendCommand(sessionId: $id, token: $t, command: $c) {
    ... on CommandResult { version view } ... on Problem { code message } } }"""
BARE = "bare Starlette endpoint (uvicorn, same options)"

# One request: returns when it has been answered (raising on a wrong answer).
Call = Callable[[httpx.AsyncClient], Awaitable[None]]


def _bare_app() -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    async def roll(request: Request) -> JSONResponse:
        body = await request.json()
        return JSONResponse({"expression": body.get("expression"), "total": 7})

    return Starlette(routes=[Route("/roll", roll, methods=["POST"])])


def _serve_bare(port: int) -> None:
    import uvicorn

    uvicorn.run(_bare_app(), host="127.0.0.1", port=port, log_config=None, access_log=False)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def _server(argv: list[str], env: dict[str, str], port: int, health: str) -> Iterator[Server]:
    """Run `argv` until it answers `health` without a 5xx; yield it; stop it."""
    base = f"http://127.0.0.1:{port}"
    process = subprocess.Popen(
        argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if process.poll() is not None:
                sys.exit(f"bench/api.py: {argv} exited with {process.returncode}")
            with contextlib.suppress(httpx.TransportError):
                method, path = health.split(" ", 1)
                if httpx.request(method, base + path).status_code < 500:
                    break
            if time.monotonic() > deadline:
                sys.exit(f"bench/api.py: {argv} did not start")
            time.sleep(0.1)
        yield Server(base, Cpu(process.pid))
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass(frozen=True)
class Run:
    """A measured run: throughput, latency percentiles and the server's CPU per request."""

    rps: float
    p50_ms: float
    p99_ms: float
    cpu_ms: float


class Cpu:
    """CPU seconds a server process has used (its own, not its children's: the API's
    embedded Redis is a child and is not counted)."""

    def __init__(self, pid: int) -> None:
        self.process = psutil.Process(pid)

    def seconds(self) -> float:
        times = self.process.cpu_times()
        return float(times.user + times.system)


@dataclass(frozen=True)
class Server:
    """A server under load: its base URL and its process's CPU clock."""

    url: str
    cpu: Cpu


def _percentile(sorted_ms: list[float], q: float) -> float:
    return sorted_ms[min(len(sorted_ms) - 1, int(q * len(sorted_ms)))]


def _run_of(latencies: list[float], elapsed: float, cpu: float) -> Run:
    ms = sorted(x * 1000 for x in latencies)
    n = len(ms)
    return Run(n / elapsed, _percentile(ms, 0.50), _percentile(ms, 0.99), cpu * 1000 / n)


def _clients(n: int) -> list[httpx.AsyncClient]:
    """One client (one keep-alive connection) per worker: httpx's shared pool spends more
    CPU than the bare server at 50 connections, and would measure itself."""
    one = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    return [httpx.AsyncClient(limits=one, timeout=30.0) for _ in range(n)]


async def _load(clients: list[httpx.AsyncClient], call: Call, total: int, server: Cpu) -> Run:
    """`total` calls, one in flight per client."""
    latencies: list[float] = []
    left = total

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal left
        while left > 0:
            left -= 1
            start = time.perf_counter()
            await call(client)
            latencies.append(time.perf_counter() - start)

    cpu = server.seconds()
    start = time.perf_counter()
    await asyncio.gather(*(worker(c) for c in clients))
    return _run_of(latencies, time.perf_counter() - start, server.seconds() - cpu)


def _post_json(url: str, body: dict[str, Any]) -> Call:
    async def call(client: httpx.AsyncClient) -> None:
        response = await client.post(url, json=body)
        if response.status_code != 200 or b"errors" in response.content:
            raise RuntimeError(f"{url}: {response.status_code} {response.text[:200]}")

    return call


async def bench_throughput(api: Server, bare: Server) -> None:
    """REST and GraphQL rolls against the bare endpoint, interleaved, best round each."""
    cases = {
        "bare": (_post_json(f"{bare.url}/roll", ROLL_BODY), bare.cpu),
        "rest_roll": (_post_json(f"{api.url}/v1/dice/roll", ROLL_BODY), api.cpu),
        "graphql_roll": (_post_json(f"{api.url}/graphql", GRAPHQL_ROLL), api.cpu),
    }
    best: dict[str, Run] = {}
    clients = _clients(CONCURRENCY)
    try:
        for call, cpu in cases.values():
            await _load(clients, call, WARMUP, cpu)
        for _ in range(ROUNDS):
            for name, (call, cpu) in cases.items():
                run = await _load(clients, call, REQUESTS, cpu)
                if name not in best or run.rps > best[name].rps:
                    best[name] = run
    finally:
        await asyncio.gather(*(c.aclose() for c in clients))
    base = best["bare"]
    _emit_rate("bare_endpoint", base, BARE, base, None)
    _emit_rate("rest_roll", best["rest_roll"], BARE, base, 0.5)
    _emit_rate("graphql_roll", best["graphql_roll"], BARE, base, 0.25)


class Table:
    """One flip-only table: a session of one player, replaced when it leaves the turn phase."""

    def __init__(self, client: httpx.AsyncClient, api: str) -> None:
        self.client, self.api = client, api
        self.session_id = self.token = ""
        self.view: dict[str, Any] = {}

    async def renew(self) -> None:
        party = [{"id": "p1", "name": "Ash"}]
        created = await self.client.post(
            f"{self.api}/v1/sessions", json={"preset": "standard_deck", "party": party}
        )
        body = created.json()
        self.session_id = body["session_id"]
        gm = {"Authorization": f"Bearer {body['gm_token']}"}
        issued = await self.client.post(
            f"{self.api}/v1/sessions/{self.session_id}/tokens",
            json={"role": "player", "member": "p1"},
            headers=gm,
        )
        self.token = issued.json()["token"]
        looked = await self.client.get(
            f"{self.api}/v1/sessions/{self.session_id}",
            headers={"Authorization": f"Bearer {self.token}"},
        )
        self.view = looked.json()["view"]

    def flip(self) -> dict[str, Any] | None:
        """The next FlipCard, or None when this session can no longer just flip."""
        if self.view.get("phase") != "turn":
            return None
        down = [c["slot"] for c in self.view["river"] if not c["face_up"]]
        return {"type": "FlipCard", "player": "p1", "card": down[0]} if down else None


async def _flips(server: Server, graphql: bool, total: int, pace: float = 0.0) -> Run:
    """`total` flips over SESSIONS sessions; with `pace`, each session flips once every
    `pace` seconds (staggered) instead of as soon as its last flip answered."""
    api = server.url
    latencies: list[float] = []
    left = total
    clients = _clients(SESSIONS)
    try:
        tables = [Table(client, api) for client in clients]
        await asyncio.gather(*(t.renew() for t in tables))

        async def play(table: Table, offset: float) -> None:
            nonlocal left
            client = table.client
            due = time.perf_counter() + offset
            while left > 0:
                command = table.flip()
                if command is None:
                    await table.renew()
                    continue
                left -= 1
                if pace:
                    await asyncio.sleep(max(0.0, due - time.perf_counter()))
                    due += pace
                start = time.perf_counter()
                if graphql:
                    variables = {"id": table.session_id, "t": table.token, "c": command}
                    response = await client.post(
                        f"{api}/graphql", json={"query": FLIP_MUTATION, "variables": variables}
                    )
                    result = response.json()["data"]["sendCommand"]
                else:
                    response = await client.post(
                        f"{api}/v1/sessions/{table.session_id}/commands",
                        json=command,
                        headers={"Authorization": f"Bearer {table.token}"},
                    )
                    result = response.json()
                latencies.append(time.perf_counter() - start)
                if "view" not in result:
                    raise RuntimeError(f"flip refused: {result}")
                table.view = result["view"]

        cpu = server.cpu.seconds()
        start = time.perf_counter()
        await asyncio.gather(*(play(t, pace * i / SESSIONS) for i, t in enumerate(tables)))
        return _run_of(latencies, time.perf_counter() - start, server.cpu.seconds() - cpu)
    finally:
        await asyncio.gather(*(c.aclose() for c in clients))


async def bench_flips(api: Server) -> None:
    """Flip p99 with SESSIONS sessions at once, over GraphQL (target) and REST."""
    await _flips(api, graphql=True, total=WARMUP)
    cases = (
        ("graphql_flip_p99", True, 0.0, 1.0),
        ("rest_flip_p99", False, 0.0, None),
        (f"graphql_flip_p99_one_flip_per_{TABLE_PACE}s_per_session", True, TABLE_PACE, None),
    )
    for case, graphql, pace, target in cases:
        run = await _flips(api, graphql=graphql, total=FLIPS, pace=pace)
        load = f"one flip every {pace} s each" if pace else "one flip in flight each"
        line = {
            "bench": "api",
            "case": case,
            "unit": "ms",
            "value": round(run.p99_ms, 2),
            "baseline": f"the issue's budget, {SESSIONS} sessions at once, {load}",
            "baseline_value": FLIP_BUDGET_MS,
            "ratio": round(FLIP_BUDGET_MS / run.p99_ms, 2),
            "target": target,
            "p50_ms": round(run.p50_ms, 2),
            "p99_ms": round(run.p99_ms, 2),
            "rps": round(run.rps, 1),
            "server_cpu_ms_per_request": round(run.cpu_ms, 2),
        }
        print(json.dumps(line), flush=True)


def _emit_rate(case: str, ours: Run, baseline: str, base: Run, target: float | None) -> None:
    line = {
        "bench": "api",
        "case": case,
        "unit": "req/s",
        "value": round(ours.rps, 1),
        "baseline": baseline,
        "baseline_value": round(base.rps, 1),
        "ratio": round(ours.rps / base.rps, 2),
        "target": target,
        "p50_ms": round(ours.p50_ms, 2),
        "p99_ms": round(ours.p99_ms, 2),
        "baseline_p50_ms": round(base.p50_ms, 2),
        "baseline_p99_ms": round(base.p99_ms, 2),
        "server_cpu_ms_per_request": round(ours.cpu_ms, 3),
        "baseline_server_cpu_ms_per_request": round(base.cpu_ms, 3),
        "concurrency": CONCURRENCY,
    }
    print(json.dumps(line), flush=True)


def main() -> None:
    if sys.argv[1:2] == ["--bare"]:
        _serve_bare(int(sys.argv[2]))
        return
    with tempfile.TemporaryDirectory(prefix="daedalus-bench-api-") as data:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DAEDALUS_")}
        env.pop("REDIS_URL", None)  # the embedded Redis, like `make run` without one
        api_port, bare_port = _free_port(), _free_port()
        api_env = {
            **env,
            "HOST": "127.0.0.1",
            "PORT": str(api_port),
            "DAEDALUS_DATA_DIR": data,
            "DAEDALUS_WORKER": "0",
        }
        with (
            _server([sys.executable, "-m", "api"], api_env, api_port, "GET /readyz") as api,
            _server(
                [sys.executable, str(Path(__file__).resolve()), "--bare", str(bare_port)],
                env,
                bare_port,
                "GET /roll",  # a 405 once it serves
            ) as bare,
        ):
            asyncio.run(bench_throughput(api, bare))
            asyncio.run(bench_flips(api))


if __name__ == "__main__":
    main()
