"""A tenant's fair share of the workers: at most DAEDALUS_MAX_JOBS_PER_TENANT simulations
queued or running at once, per tenant (issue 16). The server runs no worker here, so
the jobs stay queued; the worker-side half, a small job not waiting behind a large one,
is tests/integration/workers/test_sim_jobs.py."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest

from api.keys import config_entry, new_key
from tests.e2e.conftest import serve

pytestmark = pytest.mark.e2e

JOB = {"preset": "enchanted_forest_v1", "games": 1_000, "chart": None}


def _start(client: httpx.Client) -> httpx.Response:
    """Start a simulation, retrying a busy store as a client should (503, Retry-After):
    the first submission opens the broker connection, slow on a loaded machine."""
    for _ in range(10):
        answer = client.post("/v1/simulations", json=JOB)
        if answer.status_code != 503:
            return answer
        time.sleep(float(answer.headers.get("Retry-After", "1")))
    return answer


@pytest.fixture(scope="module")
def tenants(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, str]]:
    a, b = new_key(), new_key()
    keys = {**config_entry(a, "app-a", "tenant-a"), **config_entry(b, "app-b", "tenant-b")}
    env = {"DAEDALUS_API_KEYS": json.dumps(keys), "DAEDALUS_MAX_JOBS_PER_TENANT": "2"}
    with serve(tmp_path_factory.mktemp("share"), env) as (url, _log):
        yield url, a, b


def test_a_tenants_concurrent_jobs_are_capped_and_a_finished_one_frees_its_place(
    tenants: tuple[str, str, str],
) -> None:
    url, a, b = tenants
    with (
        httpx.Client(base_url=url, headers={"X-API-Key": a}) as first,
        httpx.Client(base_url=url, headers={"X-API-Key": b}) as second,
    ):
        started = [_start(first) for _ in range(2)]
        assert [s.status_code for s in started] == [202, 202], [s.text for s in started]
        refused = _start(first)
        assert (refused.status_code, refused.json()["code"]) == (429, "too_many_jobs")
        assert int(refused.headers["Retry-After"]) >= 1
        # Another tenant's share is its own.
        assert _start(second).status_code == 202
        # A cancelled job is finished: its place is free again.
        job = started[0].json()["job_id"]
        assert first.delete(f"/v1/simulations/{job}").json()["status"] == "cancelled"
        assert _start(first).status_code == 202
        assert _start(first).status_code == 429


def test_tunings_are_jobs_that_share_the_tenants_cap(tenants: tuple[str, str, str]) -> None:
    url, _a, b = tenants
    tuning = {"preset": "enchanted_forest_v1", "target": "escape_rate", "value": 0.5}
    with httpx.Client(base_url=url, headers={"X-API-Key": b}) as client:
        answers = []
        for _ in range(3):  # the cap is 2: the tenant may already hold a simulation
            answers.append(client.post("/v1/tunings", json=tuning))
            if answers[-1].status_code != 202:
                break
        codes = [a.status_code for a in answers]
        assert codes[0] == 202 and codes[-1] == 429, [a.text for a in answers]
        assert answers[-1].json()["code"] == "too_many_jobs"
        # No worker runs here: the tuning stays queued, with nothing to show yet.
        job = answers[0].json()["job_id"]
        queued = client.get(f"/v1/tunings/{job}").json()
        assert (queued["status"], queued["games_done"], queued["candidates"]) == (
            "queued",
            0,
            None,
        )
        assert queued["games"] == 13 * 1_000  # DCs 8 to 20, 1,000 games each
        # A cancelled tuning frees its place, for a simulation as for a tuning.
        assert client.delete(f"/v1/tunings/{job}").json()["status"] == "cancelled"
        assert _start(client).status_code == 202
