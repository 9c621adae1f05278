"""Long work stays off the request path, and one tenant's large job does not hold another's.

Against a real server with its Celery worker (one process, as on a small host), two
tenants' keys and /healthz probed throughout:
- the tuning that used to run inside the API process (an endless labyrinth played to its
  turn cap, the largest the budget allows) is queued in milliseconds and played by the
  worker: the API process stays idle and /healthz fast while it runs, and a cancel stops
  it at its next checkpoint;
- a 100-game simulation of one tenant, sent after a large job of another tenant started,
  finishes while the large one is still running (it used to wait for all of it).
The figures are printed.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest

from api.keys import config_entry, new_key
from tests.e2e.conftest import serve
from tests.security.probes import probing

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

FINISHED = ("succeeded", "failed", "cancelled")


@dataclass
class Service:
    url: str
    keys: dict[str, str]
    api: psutil.Process
    log: Path

    def client(self, tenant: str) -> httpx.Client:
        return httpx.Client(
            base_url=self.url, headers={"X-API-Key": self.keys[tenant]}, timeout=30.0
        )


def _api_process(data: Path) -> psutil.Process:
    for proc in psutil.process_iter(["cmdline"]):
        try:
            if proc.info["cmdline"][-2:] == ["-m", "api"] and proc.environ().get(
                "DAEDALUS_DATA_DIR"
            ) == str(data):
                return proc
        except (psutil.NoSuchProcess, psutil.AccessDenied, TypeError):
            continue
    raise AssertionError("the API process was not found")


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    keys = {"acme": new_key(), "globex": new_key()}
    config: dict[str, Any] = {}
    for tenant, key in keys.items():
        config.update(config_entry(key, f"{tenant}-app", tenant))
    root = tmp_path_factory.mktemp("long-work")
    env = {"DAEDALUS_API_KEYS": json.dumps(config), "DAEDALUS_WORKER_CONCURRENCY": "1"}
    with serve(root, env, worker=True) as (url, log):
        yield Service(url, keys, _api_process(root / "data"), log)


def _forest(http: httpx.Client) -> dict[str, Any]:
    presets = http.get("/v1/labyrinths/presets").json()["presets"]
    found: dict[str, Any] = next(
        p["definition"] for p in presets if p["name"] == "enchanted_forest_v1"
    )
    return found


def _submit(service: Service, http: httpx.Client, path: str, body: dict[str, Any]) -> str:
    """Start a job (see `_accepted`); its id."""
    job: str = _accepted(service, http, path, body).json()["job_id"]
    return job


def _accepted(
    service: Service, http: httpx.Client, path: str, body: dict[str, Any]
) -> httpx.Response:
    """Start a job, retrying a busy store as a client should (503 with Retry-After: the
    job store's client gives up after its 1 s socket timeout, which a Redis starved on a
    loaded machine can pass) for up to 30 s; past that, fail with what the server
    logged. The 202."""
    deadline = time.monotonic() + 30
    while True:
        answer = http.post(path, json=body)
        if answer.status_code != 503 or time.monotonic() > deadline:
            break
        time.sleep(float(answer.headers.get("Retry-After", "1")))
    if answer.status_code != 202:
        logged = [
            line for line in service.log.read_text(errors="replace").splitlines()
            if "/healthz" not in line
        ]  # fmt: skip
        raise AssertionError(f"{answer.text}\nserver log:\n" + "\n".join(logged[-40:]))
    return answer


def test_an_endless_tuning_runs_on_the_worker_and_is_cancelled(service: Service) -> None:
    with service.client("acme") as http:
        endless = {
            **_forest(http),
            "deck": {"right_path": 0, "dead_end": 20, "monster": 0, "trap": 0},
            "victory": {"right_paths": 5, "kill_monster": False},
        }
        body: dict[str, Any] = {
            "definition": endless,
            "target": "mean_turns",
            "value": 10,
            "dc_from": 10,
            "dc_to": 12,
            "games": 16_000,  # 3 × 16,000 games × 1,000 turns: 48M of the 50M game-turns
            "max_turns": 1_000,
            "combat": {"model": "win_probability", "win": 1.0},  # no party is defeated
        }
        with probing(service.url) as probe:
            accepted = _accepted(service, http, "/v1/tunings", body)
            # The accepted request's own time (a busy store's 503s before it are retried).
            job, queued_in = accepted.json()["job_id"], accepted.elapsed.total_seconds()
            deadline = time.monotonic() + 60
            while http.get(f"/v1/tunings/{job}").json()["games_done"] == 0:
                assert time.monotonic() < deadline, "the tuning never started"
                time.sleep(0.05)
            # A window of the tuning running, the API process's CPU measured over it: at
            # least 3 s, and until the worker has reported another checkpoint (2,000 games
            # of 1,000 turns each, which can take longer than 3 s on a loaded machine).
            cpu_before, at = sum(service.api.cpu_times()[:2]), time.perf_counter()
            first = http.get(f"/v1/tunings/{job}").json()
            time.sleep(3.0)
            while True:
                second = http.get(f"/v1/tunings/{job}").json()
                if second["games_done"] != first["games_done"] or second["status"] != "running":
                    break
                assert time.monotonic() < deadline + 60, ("no checkpoint reported", second)
                time.sleep(0.5)
            api_cpu = sum(service.api.cpu_times()[:2]) - cpu_before
            window = time.perf_counter() - at
            cancelled = http.delete(f"/v1/tunings/{job}").json()
        seen = [cancelled["games_done"]]
        while len(seen) < 3 or seen[-1] != seen[-2]:
            assert time.monotonic() < deadline + 60, seen
            time.sleep(1.0)
            seen.append(http.get(f"/v1/tunings/{job}").json()["games_done"])
    print(
        f"\nendless tuning ({body['games'] * 3} games × {body['max_turns']} turns): "
        f"202 in {queued_in * 1000:.0f} ms; over {window:.1f} s of it running, the worker "
        f"played {second['games_done'] - first['games_done']} games and the API process "
        f"used {api_cpu * 1000:.0f} ms of CPU; cancelled at {cancelled['games_done']} "
        f"games, stopped at {seen[-1]} of {cancelled['games']}"
    )
    probe.check()
    assert queued_in < 1.0
    assert second["status"] == "running" and second["games_done"] > first["games_done"]
    # The games are the worker's: the API answered the probes and the reads, nothing more.
    assert api_cpu < 0.25 * window, (api_cpu, window)
    assert cancelled["status"] == "cancelled"
    assert seen[-1] <= cancelled["games_done"] + 2_000 < cancelled["games"]


def test_a_small_job_of_one_tenant_is_not_queued_behind_a_large_job_of_another(
    service: Service,
) -> None:
    large_body = {"preset": "enchanted_forest_v1", "games": 1_000_000, "chart": None}
    small_body = {"preset": "enchanted_forest_v1", "games": 100, "chart": None}
    with service.client("acme") as acme, service.client("globex") as globex:
        large = _submit(service, acme, "/v1/simulations", large_body)
        try:
            deadline = time.monotonic() + 60
            while acme.get(f"/v1/simulations/{large}").json()["status"] != "running":
                assert time.monotonic() < deadline, "the large job never started"
                time.sleep(0.05)
            with probing(service.url) as probe:
                sent = time.perf_counter()
                small = _submit(service, globex, "/v1/simulations", small_body)
                while (shown := globex.get(f"/v1/simulations/{small}").json())[
                    "status"
                ] not in FINISHED:
                    assert time.monotonic() < deadline + 60, shown
                    time.sleep(0.05)
                waited = time.perf_counter() - sent
                then = acme.get(f"/v1/simulations/{large}").json()
                time.sleep(2.0)  # and the large job goes on beside the probe
        finally:
            acme.delete(f"/v1/simulations/{large}")
    print(
        f"\n100-game job of tenant B done in {waited:.2f} s, with tenant A's 1,000,000-game "
        f"job {then['status']} at {then['games_done']} games"
    )
    probe.check()
    assert shown["status"] == "succeeded" and shown["statistics"]["games"] == 100
    assert then["status"] == "running" and then["games_done"] < then["games"] // 2
