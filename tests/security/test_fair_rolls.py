"""Provably fair rolls cannot be cherry-picked, nor rolled on another tenant's commitment.

Against a real server where keys are required: tenant B rolling on tenant A's commitment
is refused as unknown; one nonce rolls once (a different client seed or expression on it
is refused, the very same roll answers again); the attempts are printed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from api.keys import config_entry, new_key
from tests.e2e.conftest import serve

pytestmark = [pytest.mark.e2e]


@dataclass(frozen=True)
class Tenants:
    url: str
    a: dict[str, str]
    b: dict[str, str]


@pytest.fixture(scope="module")
def tenants(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tenants]:
    key_a, key_b = new_key(), new_key()
    keys = {**config_entry(key_a, "app-a", "tenant-a"), **config_entry(key_b, "app-b", "tenant-b")}
    env = {
        "DAEDALUS_ENV": "production",
        "DAEDALUS_SECRET_KEY": "fair-rolls-secret-" + "x" * 20,
        "DAEDALUS_API_KEYS": json.dumps(keys),
    }
    with serve(tmp_path_factory.mktemp("fair"), env) as (url, _log):
        yield Tenants(url, {"x-api-key": key_a}, {"x-api-key": key_b})


def _roll(t: Tenants, key: dict[str, str], **body: object) -> httpx.Response:
    return httpx.post(f"{t.url}/v1/dice/fair/roll", json=body, headers=key, timeout=30)


def test_a_commitment_rolls_only_for_its_tenant_and_each_nonce_once(tenants: Tenants) -> None:
    made = httpx.post(
        f"{tenants.url}/v1/dice/fair/commitments", json={"ttl_seconds": 60}, headers=tenants.a
    )
    assert made.status_code == 201, made.text
    roll = {"commitment_id": made.json()["commitment_id"], "client_seed": "s", "nonce": 0}
    stolen = _roll(tenants, tenants.b, expression="1d20", **roll)
    print(f"\ntenant B on tenant A's commitment: {stolen.status_code} {stolen.json()['code']}")
    assert (stolen.status_code, stolen.json()["code"]) == (409, "invalid_commitment")
    first = _roll(tenants, tenants.a, expression="1d20", **roll)
    assert first.status_code == 200, first.text
    assert _roll(tenants, tenants.a, expression="1d20", **roll).json() == first.json()
    tried = []
    for seed in range(20):  # hunting for a better roll on the same nonce
        other = _roll(tenants, tenants.a, expression="1d20", **{**roll, "client_seed": f"{seed}"})
        tried.append((other.status_code, other.json()["code"]))
    print(f"20 other client seeds on a used nonce: {sorted(set(tried))}")
    assert set(tried) == {(409, "nonce_used")}
    assert _roll(tenants, tenants.a, expression="1d20", **{**roll, "nonce": 1}).status_code == 200


def test_verify_without_the_commitment_hash_is_a_clear_error(tenants: Tenants) -> None:
    body = {"expression": "1d6", "server_seed": "s", "client_seed": "c", "nonce": 0}
    response = httpx.post(f"{tenants.url}/v1/dice/verify", json=body, headers=tenants.a)
    assert (response.status_code, response.json()["code"]) == (422, "invalid_request")
    assert any(e["loc"] == ["hash"] for e in response.json()["errors"])
