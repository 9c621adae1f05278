"""Haze ability checks, spells and prayers, and complex-action odds over REST and GraphQL,
through a real HTTP client against the running server."""

from __future__ import annotations

import httpx
import pytest

from tests.e2e.test_haze_api import assert_problem, graphql

pytestmark = pytest.mark.e2e


def test_rest_lists_the_ability_check_catalogue(client: httpx.Client) -> None:
    """'Here are a number of common ability score checks for each of the nine ability scores.'"""
    response = client.get("/v1/haze/ability-checks")
    assert response.status_code == 200, response.text
    checks = {c["name"]: c for c in response.json()["checks"]}
    assert len(checks) == 18
    assert checks["lift"]["ability"] == "strength" and checks["lift"]["required"] == ["weight_lb"]
    smash = {e["name"]: e["difficulty"] for e in checks["smash"]["examples"]}
    assert smash["exterior_door"] == 7


def test_rest_rolls_a_lift_check_that_replays_from_its_seed(client: httpx.Client) -> None:
    """'Difficulty for a lift is calculated at a rate of one point per 100 pounds'."""
    body = {"check": "lift", "ability": 6, "skill": 1, "weight_lb": 250, "seed": "heave"}
    first = client.post("/v1/haze/ability-checks", json=body)
    assert first.status_code == 200, first.text
    rolled = first.json()
    assert rolled == client.post("/v1/haze/ability-checks", json=body).json()
    assert (rolled["difficulty"], rolled["ability"], rolled["seed"]) == (2, "strength", "heave")
    assert rolled["success_chance"] == {"fraction": "1/2", "float": 0.5}
    outcome = rolled["outcome"]
    assert outcome["success_rate"] == 7 - outcome["roll"] - 2


def test_rest_check_odds_and_refusals(client: httpx.Client) -> None:
    """'if you have more success points than the poison has strength then the poison is
    resisted.'"""
    odds = client.post(
        "/v1/haze/ability-checks/odds",
        json={"check": "resist_poison", "ability": 6, "poison_strength": 2},
    ).json()
    # Resisting needs 3 points: faces 1..3.
    assert odds["difficulty"] == 3 and odds["success"]["fraction"] == "3/10"
    missing = client.post("/v1/haze/ability-checks", json={"check": "lift", "ability": 6})
    # A lift needs weight_lb: a constraint the check's description states, placed there.
    (error,) = assert_problem(missing, 422, "constraint_violation")["errors"]
    assert error["loc"] == ["weight_lb"] and "lift needs weight_lb" in error["msg"]
    stranger = {"check": "befriend", "ability": 6, "human_like": False}
    assert_problem(client.post("/v1/haze/ability-checks", json=stranger), 422, "cannot_befriend")


def test_rest_learns_and_casts_spells_and_prayers(client: httpx.Client) -> None:
    """'can only be learned by those who have a score in the school the spell is from that
    is higher than that spells difficulty. The spell difficulty also effects the action roll'
    and 'Prayers function identically to spells.'"""
    spell = {"name": "fireball", "school": "fire", "difficulty": 3}
    learned = client.post("/v1/haze/spells/learn", json={"spell": spell, "school_score": 4})
    assert learned.status_code == 200, learned.text
    assert learned.json()["level"] == 0
    refused = client.post("/v1/haze/spells/learn", json={"spell": spell, "school_score": 3})
    assert_problem(refused, 422, "spell_too_difficult")
    prayer = {**spell, "kind": "prayer"}
    body = {"school_score": 4, "ability": 6, "level": 2, "seed": "cast"}
    cast = client.post("/v1/haze/spells/cast", json={**body, "spell": spell}).json()
    prayed = client.post("/v1/haze/spells/cast", json={**body, "spell": prayer}).json()
    assert cast == prayed
    assert cast["difficulty"] == 3 and cast["success_rate"] == 8 - cast["roll"] - 3
    odds = client.post(
        "/v1/haze/spells/cast/odds",
        json={"spell": spell, "school_score": 4, "ability": 6, "level": 2},
    ).json()
    assert odds["success"]["fraction"] == "1/2"


def test_rest_gives_the_exact_odds_of_the_locksmiths_complex_action(client: httpx.Client) -> None:
    """'he must achieve a difficulty of twelve ... a target of nine, he may roll one dice, per
    round ... provided he doesn't fumble his roll'."""
    body = {
        "action": {"difficulty": 12},
        "participants": [{"spec": {"ability": 5, "skill": 4}, "points": 5}],
    }
    response = client.post("/v1/haze/complex-actions/odds", json=body)
    assert response.status_code == 200, response.text
    odds = response.json()
    assert odds["done"]["fraction"] == "16373/25000"
    assert odds["rounds"][0] == {
        "round": 1,
        "chance": {"fraction": "1/10", "float": 0.1},
        "done": {"fraction": "0/1", "float": 0.0},
        "fumbled": {"fraction": "1/10", "float": 0.1},
        "exhausted": {"fraction": "0/1", "float": 0.0},
        "given_up": {"fraction": "0/1", "float": 0.0},
    }
    costly = {
        "action": {"difficulty": 300},
        "participants": [{"spec": {"ability": 6, "skill": 2}, "points": 10}] * 3,
        "max_rounds": 100,
        "rules": {"recovery": "each_round", "fumble_ends_complex": False},
    }
    response = client.post("/v1/haze/complex-actions/odds", json=costly)
    assert_problem(response, 422, "complex_odds_too_costly")


def test_graphql_checks_spells_and_complex_odds(client: httpx.Client) -> None:
    query = """query($p: [HazeParticipantInput!]!) {
      catalogue: hazeAbilityChecks { ... on HazeAbilityChecks {
        checks { name ability examples { name difficulty } } } }
      shock: hazeAbilityCheck(check: RESIST_SHOCK, ability: 6, shockPenalty: 3, seed: "s") {
        __typename ... on HazeAbilityCheck { difficulty penaltyReduction penaltyLeft
          successChance { fraction } outcome { roll successRate success } seed } }
      odds: hazeAbilityCheckOdds(check: SMASH, ability: 9, example: "exterior_door") {
        ... on HazeAbilityCheckOdds { difficulty success { fraction } } }
      learn: hazeLearnSpell(spell: {name: "heal", school: "sun", difficulty: 4, kind: PRAYER},
                            schoolScore: 4) { __typename ... on Problem { code } }
      cast: hazeCastSpell(spell: {name: "heal", school: "sun", difficulty: 4},
                          schoolScore: 5, ability: 6, level: 1, seed: "c") {
        ... on HazeActionResult { target difficulty roll successRate seed } }
      complex: hazeComplexActionOdds(action: {difficulty: 12}, participants: $p) {
        __typename ... on HazeComplexOdds { done { fraction } fumbled { fraction }
          exhausted { fraction } givenUp { fraction } meanRounds { fraction }
          rounds { round chance { fraction } } } }
      nobody: hazeComplexActionOdds(action: {difficulty: 12}, participants: []) {
        ... on Problem { code field } }
    }"""
    data = graphql(client, query, p=[{"spec": {"ability": 5, "skill": 4}, "points": 5}])
    assert len(data["catalogue"]["checks"]) == 18
    shock = data["shock"]
    assert shock["__typename"] == "HazeAbilityCheck" and shock["seed"] == "s"
    rate = shock["outcome"]["successRate"]
    reduction = rate if shock["outcome"]["success"] else 0
    assert shock["penaltyReduction"] == reduction
    assert shock["penaltyLeft"] == max(0, 3 - reduction)
    assert data["odds"] == {"difficulty": 7, "success": {"fraction": "1/5"}}
    assert data["learn"] == {"__typename": "Problem", "code": "spell_too_difficult"}
    assert data["cast"]["difficulty"] == 4 and data["cast"]["target"] == 7
    complex_odds = data["complex"]
    assert complex_odds["done"]["fraction"] == "16373/25000"
    assert complex_odds["meanRounds"]["fraction"] == "6049/2000"
    assert [r["round"] for r in complex_odds["rounds"]] == [1, 2, 3, 4, 5]
    assert data["nobody"] == {"code": "invalid_request", "field": "participants"}


def test_graphql_names_the_input_a_check_is_missing(client: httpx.Client) -> None:
    query = """{
      lift: hazeAbilityCheck(check: LIFT, ability: 6) { ... on Problem { code field } }
      door: hazeAbilityCheckOdds(check: BRACE, ability: 6, example: "door") {
        ... on Problem { code field } }
    }"""
    data = graphql(client, query)
    # A constraint between inputs names the input to fix, as GraphQL spells it.
    assert data["lift"] == {"code": "constraint_violation", "field": "weightLb"}
    assert data["door"] == {"code": "constraint_violation", "field": "attackerSuccessRate"}


def test_graphql_complex_round_with_each_round_recovery_keeps_going(client: httpx.Client) -> None:
    """'If an AE rests for an entire round, doing nothing, he regains a number of exhaustion
    points equal to his relevant health score.' — under `recovery: each_round` a fed-back
    round does not end exhausted."""
    query = """query($p: [HazeParticipantInput!]!) {
        hazeComplexAction(action: {difficulty: 100, rounds: 1, total: -3}, participants: $p,
                          seed: "again", rules: {recovery: EACH_ROUND, fumbleEndsComplex: false})
        { __typename ... on HazeComplexAction { rounds status points } } }"""
    people = [{"spec": {"ability": 1}, "points": 1, "health": 4}]
    result = graphql(client, query, p=people)["hazeComplexAction"]
    assert result == {
        "__typename": "HazeComplexAction",
        "rounds": 2,
        "status": "IN_PROGRESS",
        "points": [4],
    }
