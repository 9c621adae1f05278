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
from api.usecases.simulations import MAX_GAMES, TUNING_BUDGET
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
  ... on Simulation { status progress totalGamesDone chart { ready }
    statistics { games escapeRate escapeCi95 turns { mean histogram { turns games } } } }
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
        assert updates[-1]["status"] == "SUCCEEDED" and updates[-1]["progress"] == 1.0
        assert updates[-1]["chart"]["ready"] is True
        shown = http.get(f"/v1/simulations/{job}").json()
        chart = http.get(f"/v1/simulations/{job}/chart.svg")
    stats = shown["statistics"]
    assert shown["status"] == "succeeded" and stats["games"] == 20_000
    low, high = stats["escape_ci95"]
    assert low <= stats["escape_rate"] <= high
    # The same statistics over both transports (REST snake_case, GraphQL camelCase).
    last = updates[-1]["statistics"]
    assert (last["games"], last["escapeRate"], last["escapeCi95"]) == (
        stats["games"],
        stats["escape_rate"],
        stats["escape_ci95"],
    )
    assert last["turns"]["histogram"] == stats["turns"]["histogram"]
    assert sum(point["games"] for point in stats["turns"]["histogram"]) == 20_000
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
    assert (no_chart.status_code, no_chart.json()["code"]) == (404, "chart_not_requested")
    assert a["chart"] is None  # nothing to wait for: no chart is coming


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
    assert shown["data"]["simulation"] == {"status": "SUCCEEDED", "games": 2_000}


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
        # Exact combat odds recurse once per hit and wound: bounded by the contract.
        combat = http.post("/v1/simulations", json={"combat": {"model": "checks", "hits": 5000}})
        policy = http.post("/v1/simulations", json={"policy": "cheat"})
        long_id = http.get("/v1/simulations/" + "x" * 65)
    assert (many.status_code, many.json()["code"]) == (422, "games_limit_exceeded")
    assert (sweep.status_code, sweep.json()["code"]) == (422, "games_limit_exceeded")
    assert (tuning.status_code, tuning.json()["code"]) == (422, "games_limit_exceeded")
    assert (preset.status_code, preset.json()["code"]) == (422, "invalid_simulation")
    assert setting.status_code == 422, setting.text
    assert setting.json()["code"] == "invalid_request"
    for refused, where in ((combat, ["combat", "hits"]), (policy, ["policy"]), (long_id, ["id"])):
        assert (refused.status_code, refused.json()["code"]) == (422, "invalid_request")
        assert refused.json()["errors"][0]["loc"] == where


def _wait_tuning(http: httpx.Client, job: str, timeout: float = 120) -> list[dict[str, Any]]:
    """Every distinct state of a tuning job until it has finished."""
    deadline = time.monotonic() + timeout
    states: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        shown: dict[str, Any] = http.get(f"/v1/tunings/{job}").json()
        if not states or (shown["status"], shown["games_done"]) != (
            states[-1]["status"],
            states[-1]["games_done"],
        ):
            states.append(shown)
        if shown["status"] in ("succeeded", "failed", "cancelled"):
            return states
        time.sleep(0.05)
    raise AssertionError(f"tuning {job} did not finish")


def test_the_tuner_answers_a_target_escape_rate(service: Service) -> None:
    body = {
        "preset": "enchanted_forest_v2",
        "target": "escape_rate",
        "value": 0.5,
        "dc_from": 8,
        "dc_to": 18,
        "games": 5_000,
        "seed": "tune",
    }
    with service.client("acme") as http:
        response = http.post("/v1/tunings", json=body)
        assert response.status_code == 202, response.text
        started = response.json()
        assert response.headers["location"] == f"/v1/tunings/{started['job_id']}"
        assert started["configurations"] == 11 and started["games"] == 11 * 5_000
        states = _wait_tuning(http, started["job_id"])
    tuned = states[-1]
    assert tuned["status"] == "succeeded", tuned
    # Progress was seen on the way (checkpoints of 2,000 games), and only ever grew.
    done = [s["games_done"] for s in states]
    assert done == sorted(done) and done[-1] == 55_000
    assert any(0 < d < 55_000 for d in done), done
    assert all(s["candidates"] is None for s in states[:-1])
    distances = [c["distance"] for c in tuned["candidates"]]
    assert distances == sorted(distances) and len(distances) == 5
    best = tuned["candidates"][0]
    assert abs(best["statistics"]["escape_rate"] - 0.5) == pytest.approx(best["distance"])
    assert (tuned["configurations"], tuned["seed"]) == (11, "tune")


def test_a_tuning_is_cancelled_and_belongs_to_its_tenant(service: Service) -> None:
    # An endless labyrinth (only Dead Ends, no monster to kill) to the turn cap: a long job.
    with service.client("acme") as http:
        forest = next(
            p["definition"] for p in http.get("/v1/labyrinths/presets").json()["presets"]
            if p["name"] == "enchanted_forest_v1"
        )  # fmt: skip
        endless = {
            **forest,
            "deck": {"right_path": 0, "dead_end": 20, "monster": 0, "trap": 0},
            "victory": {"right_paths": 5, "kill_monster": False},
        }
        body = {
            "definition": endless,
            "target": "mean_turns",
            "value": 10,
            "dc_from": 10,
            "dc_to": 12,
            "games": 10_000,
            "max_turns": 1_000,
            "combat": {"model": "win_probability", "win": 1.0},  # no party is defeated
        }
        started = http.post("/v1/tunings", json=body)
        assert started.status_code == 202, started.text
        job = started.json()["job_id"]
        with service.client("globex") as other:
            for answer in (other.get(f"/v1/tunings/{job}"), other.delete(f"/v1/tunings/{job}")):
                assert (answer.status_code, answer.json()["code"]) == (404, "tuning_not_found")
        # A tuning is not a simulation, and a simulation is not a tuning.
        as_simulation = http.get(f"/v1/simulations/{job}")
        assert (as_simulation.status_code, as_simulation.json()["code"]) == (
            404,
            "simulation_not_found",
        )
        deadline = time.monotonic() + 60
        while http.get(f"/v1/tunings/{job}").json()["games_done"] == 0:
            assert time.monotonic() < deadline, "the tuning never started"
            time.sleep(0.05)
        cancelled = http.delete(f"/v1/tunings/{job}")
        assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
        at_cancel = cancelled.json()["games_done"]
        # The worker stops at its next checkpoint (2,000 games): wait until it is quiet.
        seen = [at_cancel]
        while len(seen) < 3 or seen[-1] != seen[-2]:
            assert time.monotonic() < deadline + 60, seen
            time.sleep(1.0)
            seen.append(http.get(f"/v1/tunings/{job}").json()["games_done"])
        after = http.get(f"/v1/tunings/{job}").json()
    assert after["status"] == "cancelled" and after["candidates"] is None
    # At most the checkpoint in flight was played after the cancel, of 30,000 games.
    assert after["games_done"] <= at_cancel + 2_000 < after["games"] == 30_000, after


def test_graphql_starts_reads_and_cancels_a_tuning(service: Service) -> None:
    start = """mutation { startTuning(preset: "enchanted_forest_v1", target: ESCAPE_RATE,
      value: 0.6, dcFrom: 9, dcTo: 11, games: 500, seed: "gql-tune") {
      __typename ... on StartedTuning { jobId configurations games }
      ... on Problem { code message } } }"""
    read = """query ($id: ID!) { tuning(id: $id) { __typename
      ... on Tuning { status target gamesDone candidates { dc distance
        statistics { escapeRate turns { mean } } deck { rightPath deadEnd monster trap } } }
      ... on Problem { code } } }"""
    with service.client("acme") as http:
        started = http.post("/graphql", json={"query": start}).json()["data"]["startTuning"]
        assert started["__typename"] == "StartedTuning", started
        assert (started["configurations"], started["games"]) == (3, 1_500)
        variables = {"id": started["jobId"]}
        _wait_tuning(http, started["jobId"])
        shown = http.post("/graphql", json={"query": read, "variables": variables}).json()
        rest = http.get(f"/v1/tunings/{started['jobId']}").json()
        with service.client("globex") as other:
            hidden = other.post("/graphql", json={"query": read, "variables": variables})
        wrong = http.post("/graphql", json={"query": start.replace("0.6", "1.5")}).json()
    tuning = shown["data"]["tuning"]
    assert (tuning["status"], tuning["target"], tuning["gamesDone"]) == (
        "SUCCEEDED",
        "ESCAPE_RATE",
        1_500,
    )
    # The same candidates over both transports.
    assert [(c["dc"], c["distance"]) for c in tuning["candidates"]] == [
        (c["dc"], c["distance"]) for c in rest["candidates"]
    ]
    assert tuning["candidates"][0]["deck"]["deadEnd"] == rest["candidates"][0]["deck"]["dead_end"]
    assert (
        tuning["candidates"][0]["statistics"]["escapeRate"]
        == (rest["candidates"][0]["statistics"]["escape_rate"])
    )
    assert hidden.json()["data"]["tuning"] == {"__typename": "Problem", "code": "tuning_not_found"}
    assert wrong["data"]["startTuning"]["code"] == "invalid_simulation"


@pytest.mark.parametrize("job", ["", "\ud800", "x" * 200])
def test_a_malformed_job_id_is_a_problem_on_the_subscription_as_on_the_query(
    service: Service, job: str
) -> None:
    query = "query ($id: ID!) { simulation(id: $id) { ... on Problem { code } } }"
    with service.client("acme") as http:
        body = json.dumps({"query": query, "variables": {"id": job}})
        answered = http.post("/graphql", content=body, headers={"content-type": "application/json"})
    code = answered.json()["data"]["simulation"]["code"]
    assert code == "invalid_request"  # not a job id: never looked up
    assert _follow(service, "acme", job) == [{"__typename": "Problem", "code": code}]
