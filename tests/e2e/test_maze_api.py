"""The Maze over GraphQL and REST, through a real HTTP client against the running server."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.e2e


def graphql(client: httpx.Client, query: str, **variables: Any) -> dict[str, Any]:
    response = client.post("/graphql", json={"query": query, "variables": variables})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert "errors" not in body, body
    data: dict[str, Any] = body["data"]
    return data


def test_a_rest_check_replays_from_its_seed(client: httpx.Client) -> None:
    body = {"die": 10, "modifier": 2, "dc": 6, "seed": "abc"}
    first = client.post("/v1/maze/checks", json=body)
    assert first.status_code == 200, first.text
    assert client.post("/v1/maze/checks", json=body).json() == first.json()
    check = first.json()
    assert check["seed"] == "abc" and check["band"] and check["dice"]


def test_rest_odds_are_exact_fractions(client: httpx.Client) -> None:
    response = client.post("/v1/maze/checks/odds", json={"die": 6, "modifier": 2, "dc": 10})
    assert response.status_code == 200, response.text
    odds = response.json()
    assert odds["success"]["fraction"] == "5/36"
    assert odds["bands"]["small_success"]["fraction"] == "1/36"


def test_tokens_on_a_snap_check_are_a_problem(client: httpx.Client) -> None:
    body = {"die": 8, "dc": 5, "kind": "snap", "tokens": 1}
    response = client.post("/v1/maze/checks", json=body)
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == "tokens_not_allowed"


def test_an_invalid_rest_body_is_an_invalid_request(client: httpx.Client) -> None:
    response = client.post("/v1/maze/checks", json={"die": 7})
    assert response.status_code == 422 and response.json()["code"] == "invalid_request"


def test_rest_damage_and_validation(client: httpx.Client) -> None:
    damage = client.post(
        "/v1/maze/damage", json={"die": 12, "modifier": 3, "untreated": ["minor"], "seed": "s"}
    ).json()
    assert damage["injury"] in ("grave", "serious") and damage["odds"]["scratch"]["float"] == 0
    character = {
        "name": "Vex",
        "abilities": {"ready": 10, "interaction": 6, "surroundings": 12, "navigation": 8},
        "traits": ["Soldier", "Party", "Solo"],
    }
    report = client.post("/v1/maze/characters/validate", json={"character": character}).json()
    assert not report["valid"]
    assert "exclusive_traits" in {i["code"] for i in report["issues"]}


def test_graphql_check_and_odds(client: httpx.Client) -> None:
    query = """query($seed: String) {
      mazeCheck(die: 10, modifier: 2, dc: 6, seed: $seed) {
        __typename ... on MazeCheck { seed total band tokensAwarded reach { outcome tokens } }
      }
      mazeCheckOdds(die: 10, modifier: 2, dc: 6) {
        ... on MazeCheckOdds {
          success { fraction float }
          bands { outcome probability { fraction } }
          half { allowed beatsRolling band }
        }
      }
    }"""
    data = graphql(client, query, seed="abc")
    check = data["mazeCheck"]
    assert check["__typename"] == "MazeCheck" and check["seed"] == "abc"
    rest = client.post("/v1/maze/checks", json={"die": 10, "modifier": 2, "dc": 6, "seed": "abc"})
    assert check["total"] == rest.json()["total"]
    odds = data["mazeCheckOdds"]
    assert odds["success"]["fraction"] == "7/10"
    bands = {b["outcome"]: b["probability"]["fraction"] for b in odds["bands"]}
    assert bands["incredible_success"] == "2/25"
    assert odds["half"] == {"allowed": True, "beatsRolling": True, "band": "success"}


def test_graphql_refusals_are_problems(client: httpx.Client) -> None:
    query = """{
      bad: mazeCheck(die: 7) { ... on Problem { code field } }
      snap: mazeCheck(die: 8, kind: "snap", tokens: 2) { ... on Problem { code } }
    }"""
    data = graphql(client, query)
    assert data["bad"] == {"code": "invalid_request", "field": "die"}
    assert data["snap"] == {"code": "tokens_not_allowed"}


def test_graphql_opposed_damage_validation_and_catalog(client: httpx.Client) -> None:
    query = """query($c: JSON!) {
      mazeOpposedCheck(first: {die: 10, modifier: 1}, second: {total: 5, isPc: false},
                       seed: "x") {
        ... on MazeOpposed { winner pFirstWins { fraction } }
      }
      mazeDamageCheck(die: 6, modifier: 1, seed: "y") {
        ... on MazeDamage { injury odds { outcome probability { fraction } } }
      }
      mazeValidateCharacter(character: $c, creation: true) {
        ... on MazeValidation { valid issues { code } }
      }
      mazeSkills { name ability }
      mazeTraits { name parent minHolders }
    }"""
    character = {
        "name": "Vex",
        "abilities": {"ready": 10, "interaction": 6, "surroundings": 12, "navigation": 8},
        "traits": ["Soldier", "Crybaby"],
    }
    data = graphql(client, query, c=character)
    assert data["mazeOpposedCheck"]["pFirstWins"]["fraction"] == "7/10"
    assert data["mazeDamageCheck"]["injury"]
    assert data["mazeValidateCharacter"] == {"valid": True, "issues": []}
    assert {"name": "Hardy", "ability": "ready"} in data["mazeSkills"]
    assert {"name": "Buddy", "parent": "Party", "minHolders": 2} in data["mazeTraits"]
