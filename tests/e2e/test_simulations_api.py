"""Simulations through the running service with a real Celery worker (`make run`'s setup).

Start a job, follow its progress over the graphql-transport-ws subscription, read the
statistics and the chart, cancel a job, and check that a tenant never sees another's jobs.
"""

from __future__ import annotations

import json
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest
from websockets.sync.client import connect
from websockets.typing import Subprotocol

from api.keys import config_entry, new_key
from api.simulations import MAX_GAMES, TUNING_BUDGET
from tests.e2e.conftest import serve

pytestmark = pytest.mark.slow

SMALL_CHART = {"dc_from": 10, "dc_to": 12, "games": 500}


@dataclass
class Service:
    url: str
    keys: dict[str, str]

    def client(self, tenant: str) -> httpx.Client:
        return httpx.Client(
            base_url=self.url, headers={"X-API-Key": self.keys[tenant]}, timeout=30.0
        )


def _our_workers(data: Path) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        try:
            if "celery" in " ".join(proc.info["cmdline"] or []) and proc.environ().get(
                "DAEDALUS_DATA_DIR"
            ) == str(data):
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """`python -m api` WITH its Celery worker, two tenants' keys."""
    keys = {"acme": new_key(), "globex": new_key()}
    config: dict[str, Any] = {}
    for tenant, key in keys.items():
        config.update(config_entry(key, f"{tenant}-app", tenant))
    root = tmp_path_factory.mktemp("daedalus-sim")
    (root / "data").mkdir()
    (root / "data" / "keys.json").write_text(json.dumps(config))
    env = {"DAEDALUS_WORKER": "1", "DAEDALUS_API_KEYS": "keys.json"}
    try:
        with serve(root, env) as (url, _log):
            yield Service(url, keys)
    finally:
        for proc in _our_workers(root / "data"):  # only if the server could not stop it
            proc.kill()


def _start(http: httpx.Client, **body: Any) -> str:
    response = http.post("/v1/simulations", json=body)
    assert response.status_code == 202, response.text
    job: str = response.json()["job_id"]
    assert response.headers["location"] == f"/v1/simulations/{job}"
    return job


def _wait(http: httpx.Client, job: str, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        shown: dict[str, Any] = http.get(f"/v1/simulations/{job}").json()
        if shown["status"] in ("succeeded", "failed", "cancelled"):
            return shown
        time.sleep(0.2)
    raise AssertionError(f"job {job} did not finish")


PROGRESS = """subscription ($id: ID!) { simulationProgress(id: $id) {
  __typename
  ... on Simulation { status progress totalGamesDone statistics chartReady }
  ... on Problem { code }
} }"""


def _follow(service: Service, tenant: str, job: str) -> list[dict[str, Any]]:
    """Every update of the subscription until it completes."""
    url = service.url.replace("http", "ws", 1) + "/graphql"
    headers = {"X-API-Key": service.keys[tenant]}
    updates: list[dict[str, Any]] = []
    with connect(
        url,
        subprotocols=[Subprotocol("graphql-transport-ws")],
        additional_headers=headers,
        open_timeout=10,
    ) as ws:
        ws.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(ws.recv(timeout=10))["type"] == "connection_ack"
        payload = {"query": PROGRESS, "variables": {"id": job}}
        ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        while True:
            message = json.loads(ws.recv(timeout=120))
            if message["type"] == "complete":
                return updates
            assert message["type"] == "next", message
            updates.append(message["payload"]["data"]["simulationProgress"])


def test_a_gm_simulates_watches_progress_and_gets_statistics_and_chart(service: Service) -> None:
    with service.client("acme") as http:
        job = _start(
            http, preset="enchanted_forest_v2", games=20_000, seed="e2e", chart=SMALL_CHART
        )
        updates = _follow(service, "acme", job)
        assert updates and all(u["__typename"] == "Simulation" for u in updates)
        done = [u["totalGamesDone"] for u in updates]
        assert done == sorted(done) and len(updates) >= 2
        assert updates[-1]["status"] == "succeeded" and updates[-1]["progress"] == 1.0
        assert updates[-1]["chartReady"] is True
        shown = http.get(f"/v1/simulations/{job}").json()
        chart = http.get(f"/v1/simulations/{job}/chart.svg")
    stats = shown["statistics"]
    assert shown["status"] == "succeeded" and stats["games"] == 20_000
    low, high = stats["escape_ci95"]
    assert low <= stats["escape_rate"] <= high
    assert stats == updates[-1]["statistics"]
    assert chart.status_code == 200 and chart.headers["content-type"].startswith("image/svg+xml")
    root = ET.fromstring(chart.text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert len(root.findall("{http://www.w3.org/2000/svg}circle")) == 3


def test_the_same_seed_gives_the_same_statistics(service: Service) -> None:
    with service.client("acme") as http:
        first = _start(http, preset="enchanted_forest_v1", games=3_000, seed="same", chart=None)
        second = _start(http, preset="enchanted_forest_v1", games=3_000, seed="same", chart=None)
        a, b = _wait(http, first), _wait(http, second)
        no_chart = http.get(f"/v1/simulations/{first}/chart.svg")
    assert a["statistics"] == b["statistics"] and a["status"] == "succeeded"
    assert (no_chart.status_code, no_chart.json()["code"]) == (409, "chart_not_ready")


def test_a_job_can_be_cancelled(service: Service) -> None:
    with service.client("acme") as http:
        job = _start(http, preset="enchanted_forest_v2", games=MAX_GAMES, seed="long")
        deadline = time.monotonic() + 60
        while http.get(f"/v1/simulations/{job}").json()["games_done"] == 0:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        cancelled = http.delete(f"/v1/simulations/{job}")
        assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
        time.sleep(1.0)
        shown = http.get(f"/v1/simulations/{job}").json()
    assert shown["status"] == "cancelled" and shown["statistics"] is None
    assert shown["games_done"] < MAX_GAMES


def test_a_tenant_never_sees_another_tenants_jobs(service: Service) -> None:
    with service.client("acme") as acme, service.client("globex") as globex:
        job = _start(acme, games=1_000, seed="mine", chart=None)
        for response in (
            globex.get(f"/v1/simulations/{job}"),
            globex.get(f"/v1/simulations/{job}/chart.svg"),
            globex.delete(f"/v1/simulations/{job}"),
        ):
            assert (response.status_code, response.json()["code"]) == (
                404,
                "simulation_not_found",
            )
        query = "query ($id: ID!) { simulation(id: $id) { ... on Problem { code } } }"
        gql = globex.post("/graphql", json={"query": query, "variables": {"id": job}}).json()
        assert gql["data"]["simulation"] == {"code": "simulation_not_found"}
        updates = _follow(service, "globex", job)
        assert updates == [{"__typename": "Problem", "code": "simulation_not_found"}]
        assert _wait(acme, job)["status"] == "succeeded"


def test_graphql_starts_and_reads_a_simulation(service: Service) -> None:
    start = """mutation { startSimulation(preset: "enchanted_forest_v1", games: 2000,
      seed: "gql", chart: null) { __typename ... on StartedSimulation { jobId games } } }"""
    with service.client("acme") as http:
        started = http.post("/graphql", json={"query": start}).json()["data"]["startSimulation"]
        assert started["__typename"] == "StartedSimulation" and started["games"] == 2_000
        _wait(http, started["jobId"])
        read = "query ($id: ID!) { simulation(id: $id) { ... on Simulation { status games } } }"
        variables = {"id": started["jobId"]}
        shown = http.post("/graphql", json={"query": read, "variables": variables}).json()
    assert shown["data"]["simulation"] == {"status": "succeeded", "games": 2_000}


def test_limits_are_refused_before_any_work(service: Service) -> None:
    with service.client("acme") as http:
        many = http.post("/v1/simulations", json={"games": MAX_GAMES + 1})
        sweep = http.post("/v1/simulations", json={"chart": {"dc_from": 1, "dc_to": 60}})
        tuning = http.post(
            "/v1/tunings",
            json={"target": "escape_rate", "value": 0.5, "games": TUNING_BUDGET},
        )
        preset = http.post("/v1/simulations", json={"preset": "nowhere"})
        forest = next(
            p["definition"] for p in http.get("/v1/labyrinths/presets").json()["presets"]
            if p["name"] == "enchanted_forest_v1"
        )  # fmt: skip
        bad = {**forest, "settings": {"dead_ends_removed_to": "river"}}
        setting = http.post("/v1/simulations", json={"definition": bad, "chart": None})
    assert (many.status_code, many.json()["code"]) == (422, "games_limit_exceeded")
    assert (sweep.status_code, sweep.json()["code"]) == (422, "games_limit_exceeded")
    assert (tuning.status_code, tuning.json()["code"]) == (422, "games_limit_exceeded")
    assert (preset.status_code, preset.json()["code"]) == (422, "invalid_simulation")
    assert setting.status_code == 422, setting.text
    assert setting.json()["code"] == "invalid_request"


def test_the_tuner_answers_a_target_escape_rate(service: Service) -> None:
    body = {
        "preset": "enchanted_forest_v2",
        "target": "escape_rate",
        "value": 0.5,
        "dc_from": 8,
        "dc_to": 18,
        "games": 1_000,
        "seed": "tune",
    }
    with service.client("acme") as http:
        response = http.post("/v1/tunings", json=body)
    assert response.status_code == 200, response.text
    tuned = response.json()
    distances = [c["distance"] for c in tuned["candidates"]]
    assert distances == sorted(distances) and len(distances) == 5
    best = tuned["candidates"][0]
    assert abs(best["summary"]["escape_rate"] - 0.5) == pytest.approx(best["distance"])
