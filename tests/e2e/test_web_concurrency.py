"""`WEB_CONCURRENCY=2`: two API processes on one port, sharing one Redis.

Before, uvicorn refused to start ("must pass the application as an import string").
Now both processes serve: a table created through one is played through the other,
and each process spends CPU on the requests (read from /proc, so it is not a guess).
"""

from __future__ import annotations

import asyncio
import collections
import statistics
import time

import httpx
import psutil
import pytest

from tests.e2e.conftest import serve
from tests.e2e.live_table import play_and_follow

pytestmark = pytest.mark.e2e


def _api_processes(port: int) -> list[psutil.Process]:
    """The processes listening on `port` (each API process on a socket of its own)."""
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        try:
            if "spawn_main" in " ".join(proc.info["cmdline"] or ()) and any(
                c.laddr and c.laddr.port == port and c.status == psutil.CONN_LISTEN
                for c in proc.net_connections(kind="tcp")
            ):
                found.append(proc)
        except psutil.Error:
            continue
    return found


def _listening(port: int, pids_not: frozenset[int] = frozenset()) -> list[psutil.Process]:
    """The two API processes once both listen (and neither is one of `pids_not`)."""
    deadline = time.monotonic() + 30
    while True:
        found = _api_processes(port)
        if len(found) == 2 and not {p.pid for p in found} & pids_not:
            return found
        assert time.monotonic() < deadline, f"API processes listening: {found}"
        time.sleep(0.2)


def _served_by(url: str, connections: int) -> list[int]:
    """How many of `connections` opened at once each process answered (by the request
    id's per-process prefix), most first."""

    async def one() -> str:
        async with httpx.AsyncClient(base_url=url) as fresh:  # a connection of its own
            answer = await fresh.get("/healthz")
            return answer.headers["x-request-id"][:16]

    async def burst() -> list[str]:
        return await asyncio.gather(*(one() for _ in range(connections)))

    return sorted(collections.Counter(asyncio.run(burst())).values(), reverse=True)


def test_two_api_processes_serve_one_port_and_share_the_tables(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    with serve(tmp_path_factory.mktemp("web2"), {"WEB_CONCURRENCY": "2"}) as (url, _log):
        port = int(url.rsplit(":", 1)[1])
        workers = _listening(port)  # the second may still be starting when one answers
        before = [sum(w.cpu_times()[:2]) for w in workers]
        party = [{"id": "p1", "name": "Ash"}]
        made = httpx.post(f"{url}/v1/sessions", json={"preset": "standard_deck", "party": party})
        assert made.status_code == 201, made.text
        auth = {"authorization": f"Bearer {made.json()['gm_token']}"}
        for _ in range(150):  # new connections: the kernel spreads them over both
            with httpx.Client(base_url=url) as fresh:
                seen = fresh.get(f"/v1/sessions/{made.json()['session_id']}", headers=auth)
                assert seen.status_code == 200, seen.text
        spent = [sum(w.cpu_times()[:2]) - b for w, b in zip(workers, before, strict=True)]
        print(f"\nCPU seconds per API process over 150 reads: {spent}")
        assert all(s > 0.2 * sum(spent) for s in spent), spent  # each its part, not a trace


def test_connections_opened_at_once_are_spread_over_the_processes_and_their_replacements(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # One shared listening socket let whichever process woke first accept a burst whole
    # (42 of 50 in bench/api.py); each process's own socket (SO_REUSEPORT) is chosen by
    # the connection's addresses: 40 connections split about evenly (more than 32 on one
    # process has odds of about 1 in 40,000).
    with serve(tmp_path_factory.mktemp("web2-spread"), {"WEB_CONCURRENCY": "2"}) as (url, _log):
        port = int(url.rsplit(":", 1)[1])
        workers = _listening(port)
        split = _served_by(url, 40)
        assert len(split) == 2 and split[0] <= 32, split
        workers[0].kill()  # the supervisor starts another, which binds a socket of its own
        _listening(port, pids_not=frozenset({workers[0].pid}))
        split = _served_by(url, 40)
        assert len(split) == 2 and split[0] <= 32, split


def test_a_move_sent_to_one_process_reaches_a_subscriber_on_another(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    with serve(tmp_path_factory.mktemp("web2-live"), {"WEB_CONCURRENCY": "2"}) as (url, _log):
        delays = play_and_follow(url, moves=15, in_order=False).delays
    print(
        f"\nmove to subscriber across processes: median {statistics.median(delays):.1f} ms, "
        f"max {max(delays):.1f} ms over {len(delays)} moves"
    )
    assert len(delays) >= 3
    assert statistics.median(delays) <= 50
    assert max(delays) <= 1000
