"""`WEB_CONCURRENCY=2`: two API processes on one port, sharing one Redis.

Before, uvicorn refused to start ("must pass the application as an import string").
Now both processes serve: a table created through one is played through the other,
and each process spends CPU on the requests (read from /proc, so it is not a guess).
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

import httpx
import psutil
import pytest
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

from tests.e2e.conftest import serve

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


FOLLOW = """subscription($id: ID!, $t: String) {
  sessionEvents(id: $id, token: $t, after: 0) { ... on SessionEvent { version } } }"""


def _version(message: str | bytes) -> int:
    version: int = json.loads(message)["payload"]["data"]["sessionEvents"]["version"]
    return version


def _move(http: httpx.Client, session: str, gm: str, players: dict[str, str]) -> bool:
    """One move by whoever the table waits for, each on a fresh connection (False: the
    maze is over, nobody may move)."""

    def view(token: str) -> dict[str, Any]:
        got = http.get(f"/v1/sessions/{session}", headers={"authorization": f"Bearer {token}"})
        table: dict[str, Any] = got.json()["view"]
        return table

    table = view(gm)
    if table["phase"] in ("escaped", "ended"):
        return False
    if table["phase"] == "encounter":
        command, token = {"type": "ResolveEncounter", "outcome": "party_fled"}, gm
    else:
        member = table["active"]
        token = players[member]
        mine = view(token)
        if mine["phase"] == "trap":
            command = {"type": "SkipDisarm", "player": member}
        elif mine["phase"] == "choice":
            command = {"type": "ChooseCard", "player": member, "card": mine["choice"]["options"][0]}
        else:
            card = next(c["slot"] for c in mine["river"] if not c["face_up"])
            command = {"type": "FlipCard", "player": member, "card": card}
    sent = http.post(
        f"/v1/sessions/{session}/commands",
        json=command,
        headers={"authorization": f"Bearer {token}", "connection": "close"},
    )
    assert sent.status_code == 200, sent.text
    return True


def test_a_move_sent_to_one_process_reaches_a_subscriber_on_another(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    with serve(tmp_path_factory.mktemp("web2-live"), {"WEB_CONCURRENCY": "2"}) as (url, _log):
        party = [{"id": "p1", "name": "Ash"}, {"id": "p2", "name": "Bryn"}]
        with httpx.Client(base_url=url, timeout=30) as http:
            made = http.post("/v1/sessions", json={"preset": "standard_deck", "party": party})
            session, gm = made.json()["session_id"], made.json()["gm_token"]
            players = {
                m["id"]: http.post(
                    f"/v1/sessions/{session}/tokens",
                    json={"role": "player", "member": m["id"]},
                    headers={"authorization": f"Bearer {gm}"},
                ).json()["token"]
                for m in party
            }
            ws: ClientConnection = connect(
                url.replace("http", "ws", 1) + "/graphql",
                subprotocols=[Subprotocol("graphql-transport-ws")],
                open_timeout=10,
            )
            with ws:
                ws.send(json.dumps({"type": "connection_init"}))
                assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
                variables = {"id": session, "t": gm}
                payload = {"query": FOLLOW, "variables": variables}
                ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
                latest = 0
                while latest < made.json()["version"]:  # the catch-up
                    latest = json.loads(ws.recv(timeout=10))["payload"]["data"]["sessionEvents"][
                        "version"
                    ]
                delays = []
                for _ in range(15):
                    if not _move(http, session, gm, players):
                        break
                    answered = time.perf_counter()
                    version = _version(ws.recv(timeout=10))  # the move's first event
                    delays.append(max(0.0, time.perf_counter() - answered) * 1000)
                    assert version == latest + 1
                    while True:  # the rest of the move's events, in order
                        try:
                            message = ws.recv(timeout=0.3)
                        except TimeoutError:
                            break
                        if json.loads(message)["type"] == "complete":  # the maze ended
                            break
                        version = _version(message)
                    latest = version
    print(
        f"\nmove to subscriber across processes: median {statistics.median(delays):.1f} ms, "
        f"max {max(delays):.1f} ms over {len(delays)} moves"
    )
    assert len(delays) >= 3
    assert statistics.median(delays) <= 50
    assert max(delays) <= 1000
