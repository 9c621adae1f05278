"""The running service's memory stays flat while subscriptions come and go.

Four cycles of 300 subscriptions opened at once, served their backlog, and closed: each
used to leave about 22 MiB of cyclic garbage the tuned collector rarely freed
(api/gc_policy.py). The service's resident memory after the cycles must be within 10 % of
what it was after one warm-up cycle (which grows the allocator's arenas once).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator

import httpx
import psutil
import pytest
from websockets.asyncio.client import connect
from websockets.typing import Subprotocol

from api.gc_policy import PASS_DELAY_SECONDS
from tests.e2e.conftest import serve

pytestmark = pytest.mark.slow

SUBSCRIPTIONS = 300
CYCLES = 4
PARTY = [{"id": "p1", "name": "Ash", "profile": {"system": "5e", "modifiers": {"STR": 4}}}]
QUERY = """subscription($id: ID!, $after: Long!) {
  sessionEvents(id: $id, after: $after) { __typename ... on SessionEvent { version } }
}"""


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, psutil.Process]]:
    """`python -m api` alone (no worker), and its process."""
    root = tmp_path_factory.mktemp("memory")
    # 300 sockets of one (keyless) caller at once: past the default per-caller cap (64),
    # which tests/security/test_socket_caps.py checks; this test is about memory.
    with serve(root, {"DAEDALUS_WS_MAX_SOCKETS": str(SUBSCRIPTIONS + 10)}) as (base_url, _log):
        (api,) = [
            p
            for p in psutil.Process().children()
            if p.environ().get("DAEDALUS_DATA_DIR") == str(root / "data")
        ]
        yield base_url, api


async def _cycle(ws_url: str, session: str, token: str) -> None:
    """Open SUBSCRIPTIONS subscriptions, each reads its first event, then close them all."""
    opened = asyncio.Event()
    ready = 0

    async def one() -> None:
        nonlocal ready
        protocols = [Subprotocol("graphql-transport-ws")]
        async with connect(ws_url, subprotocols=protocols, open_timeout=30) as ws:
            await ws.send(json.dumps({"type": "connection_init", "payload": {"token": token}}))
            assert json.loads(await ws.recv())["type"] == "connection_ack"
            payload = {"query": QUERY, "variables": {"id": session, "after": 0}}
            await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
            assert json.loads(await ws.recv())["type"] == "next"
            ready += 1
            await opened.wait()

    tasks = [asyncio.create_task(one()) for _ in range(SUBSCRIPTIONS)]
    while ready < SUBSCRIPTIONS and not any(t.done() for t in tasks):
        await asyncio.sleep(0.05)
    opened.set()
    await asyncio.gather(*tasks)


def _settled_rss(process: psutil.Process) -> int:
    """The resident size once the server has finished closing what the cycle opened."""
    time.sleep(PASS_DELAY_SECONDS + 1.5)
    return int(process.memory_info().rss)


def test_subscriptions_opened_and_closed_leave_the_memory_flat(
    service: tuple[str, psutil.Process],
) -> None:
    base_url, api = service
    created = httpx.post(
        f"{base_url}/v1/sessions", json={"preset": "standard_deck", "party": PARTY}, timeout=30
    ).json()
    ws_url = base_url.replace("http", "ws", 1) + "/graphql"

    def cycle() -> None:
        asyncio.run(_cycle(ws_url, created["session_id"], created["gm_token"]))

    cycle()  # warm-up
    before = _settled_rss(api)
    sizes = []
    for _ in range(CYCLES):
        cycle()
        sizes.append(_settled_rss(api))
    mib = [round(s / 2**20, 1) for s in (before, *sizes)]
    growth = sizes[-1] / before - 1
    print(f"\nRSS over {CYCLES} × {SUBSCRIPTIONS} subscriptions (MiB): {mib}; {growth:+.1%}")
    assert growth < 0.10, mib
