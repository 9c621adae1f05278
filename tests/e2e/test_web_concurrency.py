"""`WEB_CONCURRENCY=2`: two API processes on one port, sharing one Redis.

Before, uvicorn refused to start ("must pass the application as an import string").
Now both processes serve: a table created through one is played through the other,
and each process spends CPU on the requests (read from /proc, so it is not a guess).
"""

from __future__ import annotations

import statistics

import httpx
import psutil
import pytest

from tests.e2e.conftest import serve
from tests.e2e.live_table import play_and_follow

pytestmark = pytest.mark.e2e


def _api_processes(port: int) -> list[psutil.Process]:
    """The processes listening on `port` (uvicorn's workers share its socket)."""
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


def test_two_api_processes_serve_one_port_and_share_the_tables(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    with serve(tmp_path_factory.mktemp("web2"), {"WEB_CONCURRENCY": "2"}) as (url, _log):
        port = int(url.rsplit(":", 1)[1])
        workers = _api_processes(port)
        assert len(workers) == 2, workers
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
        assert all(s > 0.05 for s in spent), spent


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
