"""A table played move by move through a running server, while a GraphQL subscriber
follows its events: the move-to-subscriber delay of each move (tests of several API
processes, on one Redis and on a cluster)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

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


@dataclass(frozen=True)
class Followed:
    """What a followed play left: the session, its GM token, the last version the
    subscriber saw, and each move's delay to the subscriber (ms)."""

    session: str
    gm: str
    latest: int
    delays: list[float]


def play_and_follow(url: str, moves: int, in_order: bool) -> Followed:
    """Make a two-player table, subscribe to its events as the GM, then play up to `moves`
    moves, timing each from its answer to its first event at the subscriber. Every move's
    first event is the one after the last seen; with `in_order`, so is each later one."""
    party = [{"id": "p1", "name": "Ash"}, {"id": "p2", "name": "Bryn"}]
    with httpx.Client(base_url=url, timeout=30) as http:
        made = http.post("/v1/sessions", json={"preset": "standard_deck", "party": party})
        assert made.status_code == 201, made.text
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
            payload = {"query": FOLLOW, "variables": {"id": session, "t": gm}}
            ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
            latest = 0
            while latest < made.json()["version"]:  # the catch-up
                latest = _version(ws.recv(timeout=10))
            delays = []
            for _ in range(moves):
                if not _move(http, session, gm, players):
                    break
                answered = time.perf_counter()
                version = _version(ws.recv(timeout=10))  # the move's first event
                delays.append(max(0.0, time.perf_counter() - answered) * 1000)
                assert version == latest + 1
                while True:  # the rest of the move's events
                    try:
                        message = ws.recv(timeout=0.3)
                    except TimeoutError:
                        break
                    if json.loads(message)["type"] == "complete":  # the maze ended
                        break
                    if in_order:
                        assert _version(message) == version + 1
                    version = _version(message)
                latest = version
    return Followed(session, gm, latest, delays)
