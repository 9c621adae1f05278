"""Maze Rats over GraphQL and REST, through a real HTTP client against the running server."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.e2e

PROBLEM = "application/problem+json"


def gql(client: httpx.Client, query: str) -> dict[str, Any]:
    response = client.post("/graphql", json={"query": query})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert "errors" not in body, body
    data: dict[str, Any] = body["data"]
    return data


def test_rest_save_rolls_replay_from_their_seed(client: httpx.Client) -> None:
    body = {"ability": 1, "path_covers": True, "seed": "rat"}
    first = client.post("/v1/mazerats/saves", json=body)
    assert first.status_code == 200, first.text
    save = first.json()
    assert save == client.post("/v1/mazerats/saves", json=body).json()
    assert save["seed"] == "rat" and save["bonus"] == 2
    assert save["success"] == (save["total"] >= 9)


def test_rest_save_odds_are_exact(client: httpx.Client) -> None:
    response = client.post("/v1/mazerats/saves/odds", json={"ability": 0})
    assert response.json()["success"]["fraction"] == "5/18"


def test_rest_attack_and_its_odds(client: httpx.Client) -> None:
    attack = client.post("/v1/mazerats/attacks", json={"combat_bonus": 1, "ac": 6, "seed": "a"})
    assert attack.status_code == 200, attack.text
    a = attack.json()
    assert a["hit"] == (a["total"] > 6)
    odds = client.post("/v1/mazerats/attacks/odds", json={"combat_bonus": 1, "ac": 6}).json()
    assert odds["hit"]["fraction"] == "13/18"
    assert odds["damage"][0] == {"damage": 0, "fraction": "5/18", "probability": 5 / 18}


def test_rest_ranged_attack_in_close_combat_is_a_problem(client: httpx.Client) -> None:
    response = client.post("/v1/mazerats/attacks", json={"ranged": True, "in_close_combat": True})
    assert response.status_code == 422
    assert response.headers["content-type"].startswith(PROBLEM)
    assert response.json()["code"] == "ranged_in_close_combat"


def test_rest_refuses_an_ability_above_three(client: httpx.Client) -> None:
    response = client.post("/v1/mazerats/saves", json={"ability": 4})
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_request"


def test_rest_opposed_saves_and_odds(client: httpx.Client) -> None:
    rolled = client.post("/v1/mazerats/opposed-saves", json={"seed": "o"}).json()
    assert rolled["winner"] in ("attacker", "defender")
    odds = client.post("/v1/mazerats/opposed-saves/odds", json={"ties": "reroll"}).json()
    assert odds["attacker"]["fraction"] == "1/2"


def test_rest_generated_character_is_valid_and_identical_for_the_same_seed(
    client: httpx.Client,
) -> None:
    first = client.post("/v1/mazerats/characters", json={"seed": "hero"})
    assert first.status_code == 200, first.text
    sheet = first.json()
    assert sheet == client.post("/v1/mazerats/characters", json={"seed": "hero"}).json()
    assert sheet["max_hp"] == 6 and sheet["combat_bonus"] == 1 and len(sheet["items"]) == 6
    assert sheet["armor_class"] in (7, 8)


def test_rest_sigils_spell_costs_market_and_hirelings(client: httpx.Client) -> None:
    sigils = client.post("/v1/mazerats/sigils", json={"seed": "s", "count": 3}).json()
    assert len(sigils["sigils"]) == 3
    cost = client.post("/v1/mazerats/spell-costs", json={"base": 4, "no_save": True}).json()
    assert (cost["cost"], cost["tier"]) == (5, "major")
    healing = client.post("/v1/mazerats/spell-costs", json={"heals_hp": True})
    assert healing.json()["code"] == "magic_cannot_heal"
    assert len(client.get("/v1/mazerats/market").json()["wares"]) > 20
    assert len(client.get("/v1/mazerats/hirelings").json()["hirelings"]) == 6


def test_graphql_save_and_odds(client: httpx.Client) -> None:
    data = gql(
        client,
        """{
          mazeRatsSave(ability: 2, seed: "g") {
            __typename ... on MazeRatsSave { total success seed dice }
          }
          mazeRatsSaveOdds(ability: 1, pathCovers: true) {
            ... on MazeRatsSaveOdds { success { fraction } }
          }
          bad: mazeRatsSaveOdds(ability: 9) { __typename ... on Problem { code field } }
        }""",
    )
    save = data["mazeRatsSave"]
    assert save["__typename"] == "MazeRatsSave" and save["seed"] == "g"
    assert save["success"] == (save["total"] >= 9)
    assert data["mazeRatsSaveOdds"]["success"]["fraction"] == "7/12"
    assert data["bad"] == {"__typename": "Problem", "code": "invalid_request", "field": "ability"}


def test_graphql_attack_odds_and_problem(client: httpx.Client) -> None:
    data = gql(
        client,
        """{
          mazeRatsAttackOdds(combatBonus: 1, ac: 6, heavyWeapon: true) {
            ... on MazeRatsAttackOdds { hit { fraction } meanDamage damage { damage fraction } }
          }
          mazeRatsAttack(ranged: true, inCloseCombat: true) { ... on Problem { code } }
          mazeRatsOpposedSaveOdds { ... on MazeRatsOpposedOdds { tie { fraction } } }
        }""",
    )
    odds = data["mazeRatsAttackOdds"]
    assert odds["hit"]["fraction"] == "13/18" and odds["meanDamage"] == "3/1"
    assert odds["damage"][-1] == {"damage": 8, "fraction": "1/36"}
    assert data["mazeRatsAttack"] == {"code": "ranged_in_close_combat"}
    assert data["mazeRatsOpposedSaveOdds"]["tie"]["fraction"] == "73/648"


def test_graphql_character_is_valid_and_identical_for_the_same_seed(
    client: httpx.Client,
) -> None:
    query = """{ mazeRatsCharacter(seed: "hero") {
        ... on MazeRatsCharacter { seed armorClass maxHp paths items sheet } } }"""
    first = gql(client, query)["mazeRatsCharacter"]
    assert first == gql(client, query)["mazeRatsCharacter"]
    assert first["maxHp"] == 6 and len(first["items"]) == 6 and len(first["paths"]) == 1
    rest = client.post("/v1/mazerats/characters", json={"seed": "hero"}).json()
    assert first["sheet"] == rest


def test_graphql_sigils_spell_cost_market_and_hirelings(client: httpx.Client) -> None:
    data = gql(
        client,
        """{
          mazeRatsSigils(seed: "shop", count: 2, realm: "corporeal") {
            ... on MazeRatsSigils { sigils { name realm part } }
          }
          mazeRatsSpellCost(spell: {base: 2, extraTargets: 1, corruptionDiscount: 1}) {
            ... on MazeRatsSpellCost { cost tier corruptionSave }
          }
          mazeRatsMarket
          mazeRatsHirelings
        }""",
    )
    assert all(s["realm"] == "corporeal" for s in data["mazeRatsSigils"]["sigils"])
    assert data["mazeRatsSpellCost"] == {"cost": 2, "tier": "minor", "corruptionSave": True}
    assert data["mazeRatsMarket"][0]["name"] == "Light Weapon"
    assert len(data["mazeRatsHirelings"]) == 6
