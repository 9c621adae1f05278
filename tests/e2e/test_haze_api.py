"""Haze over GraphQL and REST, through a real HTTP client against the running server."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.e2e

PROBLEM = "application/problem+json"

ACTION_FIELDS = """
    __typename
    ... on HazeActionResult {
        target difficulty roll margin successRate success fumble arbitrary effectDice seed
        fumbleEffect { dice faces total }
    }
    ... on Problem { code message field }
"""


def graphql(client: httpx.Client, query: str, **variables: Any) -> dict[str, Any]:
    response = client.post("/graphql", json={"query": query, "variables": variables})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert "errors" not in body, body
    data: dict[str, Any] = body["data"]
    return data


def haze_action(client: httpx.Client, action: dict[str, Any], **args: Any) -> dict[str, Any]:
    query = f"""query($a: HazeActionInput!, $s: String, $arb: Boolean! = false,
        $r: HazeRulesInput) {{
        hazeAction(action: $a, seed: $s, arbitrary: $arb, rules: $r) {{ {ACTION_FIELDS} }} }}"""
    result: dict[str, Any] = graphql(client, query, a=action, **args)["hazeAction"]
    return result


def test_a_graphql_action_roll_replays_from_its_seed(client: httpx.Client) -> None:
    first = haze_action(client, {"ability": 6, "skill": 2}, s="haze")
    assert first["__typename"] == "HazeActionResult"
    assert first == haze_action(client, {"ability": 6, "skill": 2}, s="haze")
    assert first["target"] == 8 and first["effectDice"] == 4
    assert first["successRate"] == 8 - first["roll"]
    assert first["success"] == (first["roll"] <= 8)
    unseeded = haze_action(client, {"ability": 6, "skill": 2})
    assert haze_action(client, {"ability": 6, "skill": 2}, s=unseeded["seed"]) == unseeded


def test_a_graphql_arbitrary_success_rolls_nothing(client: httpx.Client) -> None:
    result = haze_action(client, {"ability": 5, "skill": 4, "difficulty": 1}, s="x", arb=True)
    assert (result["roll"], result["successRate"], result["arbitrary"]) == (None, 3, True)


def test_graphql_refusals_are_problems(client: httpx.Client) -> None:
    bad = haze_action(client, {"ability": 11})
    assert (bad["__typename"], bad["code"], bad["field"]) == (
        "Problem",
        "invalid_request",
        "action.ability",
    )
    unskilled = haze_action(client, {"ability": 6, "unskilled": True})
    assert unskilled["code"] == "no_related_skill"
    rules = haze_action(client, {"ability": 6}, r={"unskilledPenalty": 11})
    assert (rules["code"], rules["field"]) == ("invalid_request", "rules.unskilledPenalty")


def test_graphql_action_odds_are_exact_fractions(client: httpx.Client) -> None:
    query = """query($a: HazeActionInput!) { hazeActionOdds(action: $a) { __typename
        ... on HazeActionOdds { target success { fraction float } fumble { fraction }
            fumbleSuccessRate fumbleSucceeds failure { fraction }
            successRate { value fraction float } } } }"""
    odds = graphql(client, query, a={"ability": 6, "skill": 2, "difficulty": 1})["hazeActionOdds"]
    assert odds["success"] == {"fraction": "7/10", "float": 0.7}
    assert odds["fumble"]["fraction"] == "1/10"
    assert (odds["fumbleSuccessRate"], odds["fumbleSucceeds"]) == (-3, False)
    assert odds["failure"]["fraction"] == "3/10"
    # The fumble (face 10, rate -3) is its own bucket: nine faces remain.
    assert [p["value"] for p in odds["successRate"]] == list(range(-2, 7))
    assert {p["fraction"] for p in odds["successRate"]} == {"1/10"}


def test_graphql_effect_dice_and_their_distribution(client: httpx.Client) -> None:
    query = """query { hazeEffectDice(ability: 3, skill: 0, seed: "e") { __typename
        ... on HazeEffectDice { dice seed faces total } }
      hazeEffectOdds(ability: 3) { ... on ProbabilityReport {
            exact max tail { fraction } distribution { value fraction } } } }"""
    data = graphql(client, query)
    effect = data["hazeEffectDice"]
    assert effect["dice"] == 1 and effect["seed"] == "e"
    assert effect["total"] == sum(effect["faces"])
    dist = data["hazeEffectOdds"]
    assert dist["exact"] is False and dist["max"] is None and dist["tail"]["fraction"] != "0/1"
    points = {p["value"]: p["fraction"] for p in dist["distribution"]}
    assert points[7] == "1/10" and 10 not in points and points[13] == "1/100"


def test_graphql_plays_a_complex_action_round(client: httpx.Client) -> None:
    query = """query($p: [HazeParticipantInput!]!, $up: Boolean! = false) {
        hazeComplexAction(action: {difficulty: 12}, participants: $p, seed: "lock", giveUp: $up)
        { __typename ... on HazeComplexAction { total rounds status points
            rolls { roll successRate fumble } } ... on Problem { code } } }"""
    people = [
        {"spec": {"ability": 5, "skill": 4}, "points": 5},
        {"spec": {"ability": 7}, "points": 0},
    ]
    result = graphql(client, query, p=people)["hazeComplexAction"]
    assert result["rounds"] == 1 and result["points"] == [4, 0]
    roll = result["rolls"][0]
    assert result["rolls"][1] is None
    if not roll["fumble"]:
        assert result["total"] == roll["successRate"]
    stopped = graphql(client, query, p=people, up=True)["hazeComplexAction"]
    assert stopped["status"] == "GIVEN_UP"


def test_graphql_refuses_a_third_action_at_constitution_five(client: httpx.Client) -> None:
    query = """query($a: [HazeAspect!]) { hazeExhaustion(
        state: {body: {health: 5, points: 5}, mind: {health: 4, points: 4},
                soul: {health: 6, points: 6}}, actions: $a, endRound: false) {
        __typename ... on HazeExhaustionPoints { body { points nextCost canAct } }
        ... on Problem { code } } }"""
    two = graphql(client, query, a=["BODY", "BODY"])["hazeExhaustion"]
    assert two["body"] == {"points": 2, "nextCost": 3, "canAct": False}
    three = graphql(client, query, a=["BODY", "BODY", "BODY"])["hazeExhaustion"]
    assert three == {"__typename": "Problem", "code": "exhausted"}


def assert_problem(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body: dict[str, Any] = response.json()
    assert body["code"] == code
    return body


def test_rest_action_roll_agrees_with_graphql(client: httpx.Client) -> None:
    body = {"action": {"ability": 6, "skill": 2}, "seed": "haze"}
    response = client.post("/v1/haze/actions", json=body)
    assert response.status_code == 200, response.text
    rest = response.json()
    assert rest == client.post("/v1/haze/actions", json=body).json()
    gql = haze_action(client, {"ability": 6, "skill": 2}, s="haze")
    assert (rest["roll"], rest["success_rate"], rest["seed"]) == (
        gql["roll"],
        gql["successRate"],
        "haze",
    )
    assert rest["effect_dice"] == 4


def test_rest_action_odds_follow_the_rules_settings(client: httpx.Client) -> None:
    body: dict[str, Any] = {"action": {"ability": 8, "skill": 4}}
    odds = client.post("/v1/haze/actions/odds", json=body).json()
    assert odds["success"]["fraction"] == "9/10"
    assert odds["fumble"]["fraction"] == "1/10"
    lenient = client.post(
        "/v1/haze/actions/odds", json={**body, "rules": {"fumble_always_fails": False}}
    ).json()
    assert lenient["success"]["fraction"] == "1/1"


def test_rest_weapon_and_wind_raise_the_difficulty(client: httpx.Client) -> None:
    attack = {"weapon": {"difficulty": 2, "ranged": True}, "wind": 3}
    odds = client.post(
        "/v1/haze/actions/odds", json={"action": {"ability": 6, "skill": 2, "attack": attack}}
    ).json()
    assert (odds["difficulty"], odds["success"]["fraction"]) == (5, "3/10")
    gale = {**attack, "wind": 6}
    response = client.post("/v1/haze/actions", json={"action": {"ability": 6, "attack": gale}})
    assert_problem(response, 422, "wind_too_strong")


def test_rest_domain_errors_are_problem_json(client: httpx.Client) -> None:
    response = client.post("/v1/haze/actions", json={"action": {"ability": 6, "unskilled": True}})
    body = assert_problem(response, 422, "no_related_skill")
    assert body["detail"]
    arbitrary = {"action": {"ability": 6, "skill": 1, "difficulty": 2}, "arbitrary": True}
    assert_problem(client.post("/v1/haze/actions", json=arbitrary), 422, "no_arbitrary_success")
    assert_problem(
        client.post("/v1/haze/actions", json={"action": {"ability": "6"}}), 422, "invalid_request"
    )


def test_rest_effect_dice_roll_and_odds(client: httpx.Client) -> None:
    rolled = client.post("/v1/haze/effects", json={"dice": 3, "seed": "fx"}).json()
    assert rolled["total"] == sum(rolled["faces"]) and rolled["seed"] == "fx"
    report = client.post("/v1/haze/effects/odds", json={"dice": 2}).json()
    points = {p["value"]: p["fraction"] for p in report["distribution"]}
    assert points[2] == "1/100" and points[11] == "2/25"
    assert report["exact"] is False
    assert_problem(client.post("/v1/haze/effects/odds", json={"dice": 999}), 422, "invalid_request")


def test_rest_re_actions_roll_and_give_the_exact_hit_chance(client: httpx.Client) -> None:
    """'When re-actions are possible the success of the defender counts against the success
    of the attacker as difficulty.'"""
    body: dict[str, Any] = {"attack": {"ability": 1}, "defence": {"ability": 1}}
    odds = client.post("/v1/haze/reactions/odds", json=body).json()
    assert odds == {"penalty": 0, "hit": {"fraction": "1/10", "float": 0.1}}
    # 'If you reduce your attackers hit success to zero you completely evade the blow.'
    strict = {**body, "rules": {"reaction_tie": "defender"}}
    assert client.post("/v1/haze/reactions/odds", json=strict).json()["hit"]["fraction"] == "9/100"
    rolled = client.post("/v1/haze/reactions", json={**body, "seed": "dodge"}).json()
    assert rolled["seed"] == "dodge" and rolled["hit_odds"]["fraction"] == "1/10"
    assert rolled["outcome"]["hit"] == (
        rolled["attack"]["success"] and rolled["outcome"]["success_rate"] >= 0
    )
    # '(5 - 4 = 1)': the initiative penalty lowers the re-action's target.
    penalised = {
        "attack": {"ability": 8},
        "defence": {"ability": 5},
        "attacker_initiative": 5,
        "defender_initiative": 4,
        "seed": "p",
    }
    result = client.post("/v1/haze/reactions", json=penalised).json()
    assert result["penalty"] == 1 and result["defence"]["target"] == 4


def test_rest_initiative_orders_and_ambushes(client: httpx.Client) -> None:
    """'The ones with the highest success rate get to react first.' 'In an ambush situation
    only the ambushers have an initiative roll in the first round'."""
    people = [{"name": "Ann", "wits": 9, "initiative": 3}, {"name": "Bo", "wits": 2}]
    result = client.post("/v1/haze/initiative", json={"combatants": people, "seed": "i"}).json()
    rates = {r["name"]: r["success_rate"] for r in result["rolls"]}
    flat = [name for group in result["order"] for name in group]
    assert sorted(flat) == ["Ann", "Bo"] and rates[flat[0]] >= rates[flat[-1]]
    ambush = {"combatants": people, "ambushers": ["Bo"], "seed": "i"}
    ambushed = client.post("/v1/haze/initiative", json=ambush).json()
    assert ambushed["ambush"] and ambushed["order"] == [["Bo"]]
    assert ambushed["penalty"] == max(0, ambushed["rolls"][0]["success_rate"])
    bad = {"combatants": people, "ambushers": ["Cy"]}
    assert_problem(client.post("/v1/haze/initiative", json=bad), 422, "unknown_combatant")


def test_rest_effect_dice_from_ability_and_skill(client: httpx.Client) -> None:
    """'((Ability + skill)/2) + modifiers = Number of dice'"""
    body = {"ability": 7, "skill": 4, "modifiers": -3, "seed": "fx"}
    rolled = client.post("/v1/haze/effects", json=body).json()
    assert rolled["dice"] == 2 and rolled["expression"] == "2d10!"
    odds = client.post("/v1/haze/effects/odds", json={"ability": 4, "skill": 0}).json()
    assert odds["expression"].startswith("2d10!")
    unskilled = {"ability": 7, "unskilled": True}
    assert_problem(client.post("/v1/haze/effects", json=unskilled), 422, "no_related_skill")
    both = {"dice": 2, "ability": 7}
    # Either dice or an ability, not both: schema-valid, refused by a stated constraint.
    assert_problem(client.post("/v1/haze/effects", json=both), 422, "constraint_violation")


def test_graphql_re_actions_initiative_and_refusals(client: httpx.Client) -> None:
    """Re-actions with their exact hit odds, initiative, and the refusals of review 3."""
    query = """query($a: HazeActionInput!, $d: HazeActionInput, $c: [HazeCombatantInput!]!,
        $full: HazeExhaustionInput!, $none: [HazeParticipantInput!]!) {
      hazeReaction(attack: $a, defence: $d, seed: "r", rules: {reactionTie: DEFENDER}) {
        ... on HazeReaction { outcome { hit } hitOdds { fraction } attack { success } seed } }
      hazeReactionOdds(attack: $a, defence: $d, attackerInitiative: 3, defenderInitiative: 1) {
        ... on HazeReactionOdds { penalty hit { fraction } } }
      hazeInitiative(combatants: $c, ambushers: ["Ann"], seed: "i") {
        ... on HazeInitiative { ambush order penalty rolls { name successRate } } }
      over: hazeExhaustion(state: $full) { ... on Problem { code field } }
      empty: hazeComplexAction(action: {difficulty: 5}, participants: $none) {
        ... on Problem { code } }
      longSeed: hazeEffectDice(ability: 5, seed: "%s") { ... on Problem { code field } }
    }""" % ("s" * 257)
    pool = {"health": 3, "points": 3}
    data = graphql(
        client,
        query,
        a={"ability": 1},
        d={"ability": 1},
        c=[{"name": "Ann", "wits": 6}, {"name": "Bo", "wits": 6}],
        full={"body": {"health": 3, "points": 9}, "mind": pool, "soul": pool},
        none=[],
    )
    assert data["hazeReaction"]["hitOdds"]["fraction"] == "9/100"
    assert data["hazeReactionOdds"]["penalty"] == 2
    initiative = data["hazeInitiative"]
    assert initiative["ambush"] and initiative["order"] == [["Ann"]]
    assert [r["name"] for r in initiative["rolls"]] == ["Ann"]
    # Points over the health score: schema-valid, refused by a stated constraint.
    assert data["over"] == {"code": "constraint_violation", "field": "state.body"}
    assert data["empty"] == {"code": "no_participants"}
    assert data["longSeed"] == {"code": "invalid_request", "field": "seed"}


def test_rest_and_graphql_answer_a_complex_round_and_exhaustion_alike(
    client: httpx.Client,
) -> None:
    """One use case, one shape: the rounds and exhaustion GraphQL had alone are REST too."""
    people = [{"spec": {"ability": 5, "skill": 4}, "points": 5}]
    body = {"action": {"difficulty": 12}, "participants": people, "seed": "lock"}
    response = client.post("/v1/haze/complex-actions", json=body)
    assert response.status_code == 200, response.text
    rest = response.json()
    query = """query($p: [HazeParticipantInput!]!) {
        hazeComplexAction(action: {difficulty: 12}, participants: $p, seed: "lock") {
          ... on HazeComplexAction { total rounds remaining points seed
            rolls { roll successRate } } } }"""
    gql = graphql(client, query, p=people)["hazeComplexAction"]
    assert (rest["total"], rest["points"], rest["seed"]) == (gql["total"], gql["points"], "lock")
    assert rest["rolls"][0]["success_rate"] == gql["rolls"][0]["successRate"]
    nobody = client.post("/v1/haze/complex-actions", json={**body, "participants": []})
    assert_problem(nobody, 422, "no_participants")
    pool = {"health": 5, "points": 5}
    state = {"body": pool, "mind": pool, "soul": pool}
    paid = client.post("/v1/haze/exhaustion", json={"state": state, "actions": ["body", "body"]})
    assert paid.json()["body"] == {
        "health": 5,
        "points": 2,
        "actions": 2,
        "spent": 3,
        "next_cost": 3,
        "can_act": False,
    }
    third = {"state": state, "actions": ["body"] * 3}
    assert_problem(client.post("/v1/haze/exhaustion", json=third), 422, "exhausted")
    camel = {"state": state, "rules": {"endRound": True}}
    assert_problem(client.post("/v1/haze/exhaustion", json=camel), 422, "invalid_request")
