"""REST dice endpoints, through a real HTTP client against the running server."""

from __future__ import annotations

import hashlib
import time
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.e2e

PROBLEM = "application/problem+json"


def dice_faces(roll: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (d["order"], d["sides"], d["face"], d["value"], tuple(d["flags"])) for d in roll["dice"]
    ]


def assert_problem(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    assert body["code"] == code
    assert body["type"].endswith(code)
    assert body["title"] and body["detail"]
    return body


def test_health_answers_ok(client: httpx.Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_the_same_seed_gives_the_same_roll(client: httpx.Client) -> None:
    body = {"expression": "1d10!+2", "seed": "abc"}
    first = client.post("/v1/dice/roll", json=body)
    second = client.post("/v1/dice/roll", json=body)
    assert first.status_code == 200, first.text
    assert first.json() == second.json()
    roll = first.json()
    assert roll["seed"] == "abc"
    assert roll["dice"], "the per-die results are listed"
    assert roll["total"] == sum(d["value"] for d in roll["dice"] if d["active"]) + 2


def test_a_roll_without_seed_returns_one_that_replays_it(client: httpx.Client) -> None:
    first = client.post("/v1/dice/roll", json={"expression": "4d6kh3"}).json()
    seed = first["seed"]
    assert isinstance(seed, str) and seed
    replay = client.post("/v1/dice/roll", json={"expression": "4d6kh3", "seed": seed}).json()
    assert replay["total"] == first["total"]
    assert dice_faces(replay) == dice_faces(first)


def test_renderings_are_added_when_requested(client: httpx.Client) -> None:
    body = {"expression": "2d6+1 >= 9", "seed": "s", "render": ["foundry", "dice_so_nice"]}
    roll = client.post("/v1/dice/roll", json=body).json()
    assert roll["foundry"]["total"] == roll["total"]
    assert "terms" in roll["foundry"]
    assert "throws" in roll["dice_so_nice"]
    plain = client.post("/v1/dice/roll", json={"expression": "2d6", "seed": "s"}).json()
    assert "foundry" not in plain and "dice_so_nice" not in plain


def test_probability_of_a_maze_rats_save_is_five_twelfths(client: httpx.Client) -> None:
    response = client.post("/v1/dice/probability", json={"expression": "2d6+1 >= 9"})
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["check"]["success"]["fraction"] == "5/12"
    assert report["check"]["success"]["exact"] is True
    assert (report["min"], report["max"]) == (3, 13)


def test_a_syntax_error_is_a_problem_with_its_position(client: httpx.Client) -> None:
    response = client.post("/v1/dice/roll", json={"expression": "2d6 + + )"})
    body = assert_problem(response, 400, "syntax_error")
    assert isinstance(body["position"], int)


@pytest.mark.parametrize(
    "expression",
    [
        "1d1!",
        "999999999d999999999",
        "(" * 5000 + "1" + ")" * 5000,
        "+".join(["1"] * 100_000),
    ],
    ids=["1d1!", "huge-dice", "5000-parens", "100000-terms"],
)
@pytest.mark.parametrize("endpoint", ["/v1/dice/roll", "/v1/dice/probability"])
def test_expressions_past_the_limits_are_refused_quickly(
    client: httpx.Client, endpoint: str, expression: str
) -> None:
    started = time.perf_counter()
    response = client.post(endpoint, json={"expression": expression})
    elapsed = time.perf_counter() - started
    assert 400 <= response.status_code < 500, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    assert response.json()["code"]
    assert elapsed < 1.0


@pytest.mark.parametrize(
    ("endpoint", "body"),
    [
        ("/v1/dice/roll", {}),
        ("/v1/dice/roll", {"expression": "1d6", "colour": "red"}),
        ("/v1/dice/roll", {"expression": 6}),
        ("/v1/dice/roll", {"expression": "1d6", "render": ["pdf"]}),
        ("/v1/dice/fair/commitments", {"ttl_seconds": 5}),
        (
            "/v1/dice/verify",
            {"expression": "1d6", "server_seed": "a", "client_seed": "b", "nonce": -1},
        ),
        # Without the commitment's hash there is nothing to verify; a hash is 64 hex
        # digits (a non-ASCII one used to be a 500).
        ("/v1/dice/verify", {"expression": "1d6", "server_seed": "a", "client_seed": "b"}),
        (
            "/v1/dice/verify",
            {"expression": "1d6", "server_seed": "a", "client_seed": "b", "hash": "é" * 64},
        ),
    ],
)
def test_an_invalid_body_is_an_invalid_request(
    client: httpx.Client, endpoint: str, body: dict[str, Any]
) -> None:
    problem = assert_problem(client.post(endpoint, json=body), 422, "invalid_request")
    assert problem["errors"]


def test_a_body_that_is_not_json_is_an_invalid_request(client: httpx.Client) -> None:
    response = client.post(
        "/v1/dice/roll", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert_problem(response, 422, "invalid_request")


def test_an_unknown_route_is_a_not_found_problem(client: httpx.Client) -> None:
    assert_problem(client.get("/v1/nowhere"), 404, "not_found")


def test_a_wrong_method_is_a_problem(client: httpx.Client) -> None:
    assert_problem(client.get("/v1/dice/roll"), 405, "method_not_allowed")


def test_a_fair_roll_under_a_commitment_cannot_be_revealed_early(client: httpx.Client) -> None:
    commitment = client.post("/v1/dice/fair/commitments", json={"ttl_seconds": 60})
    assert commitment.status_code == 201, commitment.text
    issued = commitment.json()
    assert len(issued["hash"]) == 64
    body = {
        "commitment_id": issued["commitment_id"],
        "client_seed": "player-1",
        "nonce": 0,
        "expression": "1d10!+2 >= 10",
    }
    first = client.post("/v1/dice/fair/roll", json=body)
    assert first.status_code == 200, first.text
    # A retry of the very same roll answers the same dice; the same nonce with another
    # client seed or expression is refused (no cherry-picking), the next nonce rolls.
    assert client.post("/v1/dice/fair/roll", json=body).json() == first.json()
    for changed in ({"client_seed": "player-2"}, {"expression": "1d10!+3 >= 10"}):
        again = client.post("/v1/dice/fair/roll", json={**body, **changed})
        assert_problem(again, 409, "nonce_used")
    assert client.post("/v1/dice/fair/roll", json={**body, "nonce": 1}).status_code == 200
    early = client.post("/v1/dice/fair/reveal", json={"commitment_id": issued["commitment_id"]})
    assert_problem(early, early.status_code, "commitment_active")
    assert 400 <= early.status_code < 500


def test_a_forged_commitment_is_refused(client: httpx.Client) -> None:
    body = {"commitment_id": "forged", "client_seed": "c", "nonce": 0, "expression": "1d6"}
    response = client.post("/v1/dice/fair/roll", json=body)
    assert 400 <= response.status_code < 500
    assert response.json()["code"] == "invalid_commitment"


def test_verify_recomputes_a_roll_from_a_revealed_seed(client: httpx.Client) -> None:
    server_seed = "a-server-seed-chosen-by-the-test"
    digest = hashlib.sha256(server_seed.encode()).hexdigest()
    body = {
        "expression": "1d10!+2",
        "server_seed": server_seed,
        "client_seed": "player-1",
        "nonce": 7,
        "hash": digest,
    }
    response = client.post("/v1/dice/verify", json=body)
    assert response.status_code == 200, response.text
    verification = response.json()
    assert verification["hash_matches"] is True
    again = client.post("/v1/dice/verify", json=body).json()
    assert again == verification
    wrong = client.post("/v1/dice/verify", json={**body, "hash": "0" * 64}).json()
    assert wrong["hash_matches"] is False
