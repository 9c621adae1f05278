"""API benchmark: session commands (flips) through the running service (issues 6, 18).

The roll's request path against bare servers doing the same work is
``bench/request_path.py`` (driven by wrk: a Python load generator on the same cores
saturates before the server does, so its throughput ratios measured the generator).
What this one measures:

* ``graphql_flip_p99`` (the issue's "flip p99 ≤ 25 ms at 50 concurrent sessions"): p99
  latency of the ``sendCommand`` mutation flipping a card, over HTTP to the running
  server, with ``SESSIONS`` (50) live sessions, each played by its own player token on
  its own connection and flipping once every ``TABLE_PACE`` seconds (0.5 s; staggered,
  so 100 flips/s are offered), over ``PACED_FLIPS`` flips (p99 is the 20th worst). The
  baseline is the issue's budget, 25 ms; ratio = 25 / p99, target 1. Each latency runs
  from when the flip was due, not from when it was sent, so a late send (a slow answer
  before it, a busy client) counts against the server rather than hiding.

  Why this reading of "50 concurrent sessions": a session is a table of people, and 50
  concurrent sessions are 50 tables in play at once. Even a brisk table flips a card
  every few seconds; one flip every 0.5 s at every table is several times what 50 real
  tables send, and the p99 under that load is what a player feels. The other reading,
  50 requests always in flight (a closed loop), is a saturation test: the server runs
  flat out and, by Little's law, every flip waits behind the 49 others, so its latency
  is about 50 × the server's CPU per flip, whatever the product's traffic. On this
  2-core machine, where the load generator shares the cores, that is ~100-200 ms and
  says how much CPU a flip costs, which ``server_cpu_ms_per_flip`` says directly.
* ``graphql_flip_p99_closed_loop_50_in_flight`` (informative): that saturation test,
  ``SESSIONS`` sessions each sending its next flip as soon as the last one answered.
* ``rest_flip_p99`` and ``rest_flip_p99_closed_loop_50_in_flight`` (informative): the
  same two over ``POST /v1/sessions/{id}/commands``.
* ``graphql_flip_p99_closed_loop_50_in_flight_2_api_processes`` and the ``rest_`` one:
  the closed loop again on a second server with ``WEB_CONCURRENCY=2`` (issue 18: "closed
  loop, 50 sessions, 2 API processes: flip p99 ≤ 25 ms", target 1); their CPU is both
  API processes'.

The flip-only part of a game is short (a trap, a monster, a choice or the end comes
after a few flips, about three on average): each run first sets up enough sessions
(create, issue a player token, look; about one per two flips it will make), outside the
timings and the CPU reading, and a worker whose session can no longer just flip takes
the next one set up. The CPU read over the run is then the flips' own:
``server_cpu_ms_per_flip`` (the server's CPU over the run, per flip). Should the
prepared sessions run out, a worker sets up another inside the run (``renewals``, 0 in
a normal run) and ``server_cpu_ms_per_flip_less_renewals`` estimates the flips' own CPU
by costing each renewal as the preparation's cost one; the achieved ``flips_per_s``,
mean and p50/p99 are given too.

The server is started here in a subprocess on a free loopback port: ``python -m api``
(``DAEDALUS_WORKER=0``, development settings: no API key, no rate limit, the JSON access
log at level info, the embedded Redis, a temporary data folder). Load comes from one
``httpx.AsyncClient`` per session in this process. After a warm-up, the closed loops
run first (``CLOSED_FLIPS`` flips each), then the paced runs, so
that these find the session cache as full as a long-running server's. The whole
benchmark takes about a minute on a 2-core machine.

Output: one JSON object per line, with the keys ``bench``, ``case``, ``unit``,
``value`` (ours), ``baseline``, ``baseline_value``, ``ratio`` (``value /
baseline_value`` for rates, ``baseline_value / value`` for times) and ``target`` (the
ratio the issue asks for, or null for informative lines), plus ``p50_ms``/``p99_ms``.
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
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psutil

ROOT = Path(__file__).resolve().parents[1]
SESSIONS = 50
WARMUP = 300
CLOSED_FLIPS = 1000
PACED_FLIPS = 2000
FLIP_BUDGET_MS = 25.0
TABLE_PACE = 0.5  # seconds between a session's flips in the paced case: a brisk table
STARTUP_SECONDS = 60.0
FLIP_MUTATION = """mutation($id: ID!, $t: String!, $c: SessionCommandInput!) {
  sendCommand(id: $id, token: $t, command: $c) {
    ... on CommandResult { version view { ... on LabyrinthTableView {
      phase active river { slot faceUp } } } }
    ... on Problem { code message } } }"""


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
    """CPU seconds the API has used: its process and, with WEB_CONCURRENCY > 1, its worker
    processes (not the embedded Redis, nor Redis's guard)."""

    def __init__(self, pid: int) -> None:
        self.process = psutil.Process(pid)

    def seconds(self) -> float:
        total = 0.0
        for proc in [self.process, *self.process.children(recursive=True)]:
            with contextlib.suppress(psutil.NoSuchProcess):
                if "redis" in " ".join(proc.cmdline()):
                    continue
                times = proc.cpu_times()
                total += times.user + times.system
        return total


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


class Table:
    """One flip-only table: a session of one player, replaced when it leaves the turn phase."""

    def __init__(self, api: str) -> None:
        self.api = api
        self.session_id = self.token = ""
        self.view: dict[str, Any] = {}

    async def set_up(self, client: httpx.AsyncClient) -> Table:
        party = [{"id": "p1", "name": "Ash"}]
        created = await client.post(
            f"{self.api}/v1/sessions", json={"preset": "standard_deck", "party": party}
        )
        body = created.json()
        self.session_id = body["session_id"]
        gm = {"Authorization": f"Bearer {body['gm_token']}"}
        issued = await client.post(
            f"{self.api}/v1/sessions/{self.session_id}/tokens",
            json={"role": "player", "member": "p1"},
            headers=gm,
        )
        self.token = issued.json()["token"]
        looked = await client.get(
            f"{self.api}/v1/sessions/{self.session_id}",
            headers={"Authorization": f"Bearer {self.token}"},
        )
        self.view = looked.json()["view"]
        return self

    def flip(self) -> dict[str, Any] | None:
        """The next FlipCard, or None when this session can no longer just flip."""
        if self.view.get("phase") != "turn":
            return None
        down = [c["slot"] for c in self.view["river"] if not c["face_up"]]
        return {"type": "FlipCard", "player": "p1", "card": down[0]} if down else None


@dataclass(frozen=True)
class FlipRun:
    """A flip run: latencies, achieved rate, the server's CPU per flip, renewals."""

    run: Run
    flips: int
    renewals: int
    mean_ms: float
    flip_cpu_ms: float  # the server's CPU per flip less any renewals' (an estimate)


async def _prepared(server: Server, clients: list[httpx.AsyncClient], n: int) -> list[Table]:
    """`n` tables set up over the clients, a few at a time (not a burst of n)."""
    tables: list[Table] = []
    for start in range(0, n, len(clients)):
        batch = [Table(server.url).set_up(c) for c in clients[: n - start]]
        tables += await asyncio.gather(*batch)
    return tables


async def _flips(server: Server, graphql: bool, total: int, pace: float = 0.0) -> FlipRun:
    """`total` flips over SESSIONS sessions; with `pace`, each session flips once every
    `pace` seconds (staggered) and a latency runs from when its flip was due; without,
    each sends its next flip as soon as the last one answered."""
    api = server.url
    latencies: list[float] = []
    left = total
    renewals = 0
    clients = _clients(SESSIONS)
    try:
        cpu = server.cpu.seconds()
        spare = await _prepared(server, clients, SESSIONS + total // 2)
        renewal_cpu = (server.cpu.seconds() - cpu) / len(spare)
        tables, spare = spare[:SESSIONS], spare[SESSIONS:]

        async def play(client: httpx.AsyncClient, table: Table, due: float) -> None:
            nonlocal left, renewals
            while left > 0:
                command = table.flip()
                if command is None:
                    if spare:
                        table = spare.pop()
                    else:
                        table = await Table(api).set_up(client)
                        renewals += 1
                    due = max(due, time.perf_counter())  # a new table starts when ready
                    continue
                left -= 1
                if pace:
                    await asyncio.sleep(max(0.0, due - time.perf_counter()))
                    start, due = due, due + pace
                else:
                    start = time.perf_counter()
                if graphql:
                    flip = {k: v for k, v in command.items() if k != "type"}
                    variables = {"id": table.session_id, "t": table.token, "c": {"flipCard": flip}}
                    response = await client.post(
                        f"{api}/graphql", json={"query": FLIP_MUTATION, "variables": variables}
                    )
                    result = response.json()["data"]["sendCommand"]
                    if "view" in result:  # as REST spells it, for the next flip
                        shown = result["view"]
                        result["view"] = {
                            "phase": shown["phase"].lower(),
                            "river": [
                                {"slot": c["slot"], "face_up": c["faceUp"]} for c in shown["river"]
                            ],
                        }
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
        began = time.perf_counter()
        await asyncio.gather(
            *(
                play(c, t, began + pace * i / SESSIONS)
                for i, (c, t) in enumerate(zip(clients, tables, strict=True))
            )
        )
        elapsed = time.perf_counter() - began
        run = _run_of(latencies, elapsed, server.cpu.seconds() - cpu)
        mean_ms = 1000 * sum(latencies) / len(latencies)
        flip_only = run.cpu_ms - 1000 * renewals * renewal_cpu / len(latencies)
        return FlipRun(run, len(latencies), renewals, mean_ms, flip_only)
    finally:
        await asyncio.gather(*(c.aclose() for c in clients))


async def bench_flips(api: Server, processes: int = 1) -> None:
    """Flip p99 with SESSIONS sessions at a table's pace (target) and flat out, both APIs;
    with 2 API processes, the closed loop only (the issue's target: p99 ≤ 25 ms)."""
    await _flips(api, graphql=True, total=WARMUP)
    await _flips(api, graphql=False, total=WARMUP)
    closed = f"_closed_loop_{SESSIONS}_in_flight"
    if processes > 1:
        closed += f"_{processes}_api_processes"
        cases: tuple[tuple[str, bool, float, int, float | None], ...] = (
            (f"graphql_flip_p99{closed}", True, 0.0, CLOSED_FLIPS, 1.0),
            (f"rest_flip_p99{closed}", False, 0.0, CLOSED_FLIPS, 1.0),
        )
    else:
        cases = (
            (f"graphql_flip_p99{closed}", True, 0.0, CLOSED_FLIPS, None),
            (f"rest_flip_p99{closed}", False, 0.0, CLOSED_FLIPS, None),
            ("graphql_flip_p99", True, TABLE_PACE, PACED_FLIPS, 1.0),
            ("rest_flip_p99", False, TABLE_PACE, PACED_FLIPS, None),
        )
    for case, graphql, pace, flips, target in cases:
        done = await _flips(api, graphql=graphql, total=flips, pace=pace)
        run = done.run
        load = (
            f"each flipping once every {pace} s"
            if pace
            else "each sending its next flip when the last answered"
        )
        line = {
            "bench": "api",
            "case": case,
            "unit": "ms",
            "value": round(run.p99_ms, 2),
            "baseline": f"the issue's budget; {SESSIONS} sessions at once, {load}",
            "baseline_value": FLIP_BUDGET_MS,
            "ratio": round(FLIP_BUDGET_MS / run.p99_ms, 2),
            "target": target,
            "p50_ms": round(run.p50_ms, 2),
            "p99_ms": round(run.p99_ms, 2),
            "mean_ms": round(done.mean_ms, 2),
            "flips": done.flips,
            "flips_per_s": round(run.rps, 1),
            "renewals": done.renewals,
            "server_cpu_ms_per_flip": round(run.cpu_ms, 2),
            "server_cpu_ms_per_flip_less_renewals": round(done.flip_cpu_ms, 2),
            "sessions": SESSIONS,
        }
        print(json.dumps(line), flush=True)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="daedalus-bench-api-") as data:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DAEDALUS_")}
        env.pop("REDIS_URL", None)  # the embedded Redis, like `make run` without one
        api_port = _free_port()
        api_env = {
            **env,
            "HOST": "127.0.0.1",
            "PORT": str(api_port),
            "DAEDALUS_DATA_DIR": data,
            "DAEDALUS_WORKER": "0",
        }
        with _server([sys.executable, "-m", "api"], api_env, api_port, "GET /readyz") as api:
            asyncio.run(bench_flips(api))
    with tempfile.TemporaryDirectory(prefix="daedalus-bench-api-") as data:
        api_env = {**api_env, "DAEDALUS_DATA_DIR": data, "WEB_CONCURRENCY": "2"}
        api_env["PORT"] = str(api_port := _free_port())
        with _server([sys.executable, "-m", "api"], api_env, api_port, "GET /readyz") as api:
            asyncio.run(bench_flips(api, processes=2))


if __name__ == "__main__":
    main()
