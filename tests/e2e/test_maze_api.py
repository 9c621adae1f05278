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
    assert check["seed"] == "abc"
    faces = [d["value"] for d in check["dice"]]
    assert faces and all(f == 10 for f in faces[:-1]) and 1 <= faces[-1] <= 9
    assert check["score"] == check["total"] == sum(faces) + 2
    assert check["margin"] == check["total"] - 6
    expected = "failure" if check["margin"] < 0 else "small_success"
    if check["margin"] > 0:
        expected = "success" if check["margin"] <= 4 else "major_success"
    if check["margin"] >= 9:
        expected = "incredible_success"
    assert check["band"] == expected and check["success"] == (check["margin"] >= 0)


def test_rest_odds_are_exact_fractions(client: httpx.Client) -> None:
    response = client.post("/v1/maze/checks/odds", json={"die": 6, "modifier": 2, "dc": 10})
    assert response.status_code == 200, response.text
    odds = response.json()
    assert odds["success"]["fraction"] == "5/36"
    bands = {b["band"]: b["probability"] for b in odds["bands"]}
    assert bands["small_success"]["fraction"] == "1/36"
    assert [b["band"] for b in odds["bands"]][:2] == ["incredible_success", "major_success"]


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
    faces = [d["value"] for d in damage["dice"]]
    assert damage["total"] == sum(faces) + 3
    assert damage["injury"] == ("grave" if damage["total"] <= 4 else "serious")
    assert damage["tokens_awarded"] == 1 and damage["failed"]
    odds = {o["injury"]: o["probability"] for o in damage["odds"]}
    assert odds["scratch"]["fraction"] == "0/1"
    # Capped at Serious: P(Serious) = P(d12 ≥ 2) = 11/12, Grave (total 4) 1/12.
    assert odds["serious"]["fraction"] == "11/12"
    assert damage["half"]["injury"] == "serious" and damage["half"]["score"] == 9
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
        __typename ... on MazeCheck { seed total band tokensAwarded reach { band tokens } }
      }
      mazeCheckOdds(die: 10, modifier: 2, dc: 6) {
        ... on MazeCheckOdds {
          success { fraction float }
          bands { band probability { fraction } }
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
    bands = {b["band"]: b["probability"]["fraction"] for b in odds["bands"]}
    assert bands["INCREDIBLE_SUCCESS"] == "2/25"
    assert odds["half"] == {"allowed": True, "beatsRolling": True, "band": "SUCCESS"}


def test_graphql_refusals_are_problems(client: httpx.Client) -> None:
    query = """{
      bad: mazeCheck(die: 7) { ... on Problem { code field } }
      snap: mazeCheck(die: 8, kind: SNAP, tokens: 2) { ... on Problem { code } }
    }"""
    data = graphql(client, query)
    assert data["bad"] == {"code": "invalid_request", "field": "die"}
    assert data["snap"] == {"code": "tokens_not_allowed"}


def test_graphql_opposed_damage_validation_and_catalog(client: httpx.Client) -> None:
    query = """query($c: MazeCharacterInput!) {
      mazeOpposedCheck(first: {die: 10, modifier: 1}, second: {total: 5, isPc: false},
                       seed: "x") {
        ... on MazeOpposed { winner odds { firstWins { fraction } } }
      }
      mazeDamageCheck(die: 6, modifier: 1, seed: "y") {
        ... on MazeDamage { injury odds { injury probability { fraction } } }
      }
      mazeValidateCharacter(character: $c, creation: true) {
        ... on MazeValidation { valid issues { code } }
      }
      mazeSkills { ... on MazeSkills { skills { name ability } } }
      mazeTraits { ... on MazeTraits { traits { name parent minHolders } } }
    }"""
    character = {
        "name": "Vex",
        "abilities": {"ready": 10, "interaction": 6, "surroundings": 12, "navigation": 8},
        "traits": ["Soldier", "Crybaby"],
    }
    data = graphql(client, query, c=character)
    assert data["mazeOpposedCheck"]["odds"]["firstWins"]["fraction"] == "7/10"
    assert data["mazeDamageCheck"]["injury"] in {
        o["injury"]
        for o in data["mazeDamageCheck"]["odds"]
        if o["probability"]["fraction"] != "0/1"
    }
    assert data["mazeValidateCharacter"] == {"valid": True, "issues": []}
    assert {"name": "Hardy", "ability": "READY"} in data["mazeSkills"]["skills"]
    assert {"name": "Buddy", "parent": "Party", "minHolders": 2} in data["mazeTraits"]["traits"]
    rest = client.get("/v1/maze/skills").json()["skills"]
    assert {"name": "Hardy", "ability": "ready", "description": ""} in rest


ABILITIES = {"ready": 10, "interaction": 6, "surroundings": 12, "navigation": 8}


def test_a_character_without_an_ability_die_is_a_problem_not_a_crash(
    client: httpx.Client,
) -> None:
    """ "use the die associated with that skill's ability" — none given: missing_ability."""
    bare = {"name": "a", "abilities": {}}
    for path, body in [
        ("/v1/maze/checks", {"character": bare, "skill": "Combat"}),
        ("/v1/maze/checks/odds", {"character": bare, "skill": "Combat"}),
        ("/v1/maze/damage", {"character": bare}),
    ]:
        response = client.post(path, json=body)
        assert response.status_code == 422, (path, response.text)
        assert response.json()["code"] == "missing_ability"
    query = """query($c: MazeCharacterInput!) {
      check: mazeCheck(character: $c, skill: "Combat") { ... on Problem { code } }
      damage: mazeDamageCheck(character: $c) { ... on Problem { code } }
    }"""
    data = graphql(client, query, c=bare)
    assert data == {"check": {"code": "missing_ability"}, "damage": {"code": "missing_ability"}}


def test_loot_checks_give_a_class_and_its_exact_odds(client: httpx.Client) -> None:
    """LOOT CHECK: "what class of loot (Common, Uncommon, Rare, Ultra, Legendary)"."""
    loot = client.post("/v1/maze/loot-checks", json={"die": 12, "modifier": 2, "seed": "l"})
    assert loot.status_code == 200, loot.text
    total = sum(d["value"] for d in loot.json()["dice"]) + 2
    assert loot.json()["total"] == total
    classes = [(17, "Legendary"), (13, "Ultra"), (9, "Rare"), (5, "Uncommon"), (-100, "Common")]
    assert loot.json()["loot_class"] == next(n for low, n in classes if total >= low)
    odds = client.post("/v1/maze/loot-checks/odds", json={"die": 12, "modifier": 2}).json()
    by_class = {c["loot_class"]: c["probability"] for c in odds["classes"]}
    assert list(by_class) == ["Common", "Uncommon", "Rare", "Ultra", "Legendary"]
    assert by_class["Common"]["fraction"] == "1/6"
    assert by_class["Legendary"]["fraction"] == "5/72"
    refused = client.post("/v1/maze/checks", json={"die": 8, "kind": "loot"})
    assert refused.status_code == 422 and refused.json()["code"] == "use_kind_endpoint"
    query = """{
      mazeLootCheck(die: 12, modifier: 2, seed: "l") { ... on MazeLoot { total lootClass } }
      mazeLootOdds(die: 12, modifier: 2) {
        ... on MazeLootOdds { classes { lootClass probability { fraction } } }
      }
    }"""
    data = graphql(client, query)
    assert data["mazeLootCheck"] == {"total": total, "lootClass": loot.json()["loot_class"]}
    assert {"lootClass": "Common", "probability": {"fraction": "1/6"}} in data["mazeLootOdds"][
        "classes"
    ]


def test_group_checks_sum_against_the_collective_dc(client: httpx.Client) -> None:
    """GROUP CHECK: "a check made in a group to hit a collective DC"; no tokens."""
    body = {"members": [{"die": 10, "modifier": 2}, {"die": 8, "modifier": 1}], "dc": 12}
    group = client.post("/v1/maze/group-checks", json={**body, "seed": "g"}).json()
    sums = [sum(d["value"] for d in dice) for dice in group["dice"]]
    assert group["scores"] == [sums[0] + 2, sums[1] + 1]
    assert group["total"] == sum(group["scores"]) and group["success"] == (group["total"] >= 12)
    assert group["odds"]["success"]["fraction"] == "13/20"
    assert group["odds"]["exact"] is True
    assert group["odds"]["error_bound"]["float"] == 0
    majority = {**body, "rules": {"group_mode": "majority"}, "dc": 4}
    query = """query($m: [MazeRollerInput!]!, $r: MazeRulesInput) {
      mazeGroupCheck(members: $m, dc: 4, rules: $r, seed: "g") {
        ... on MazeGroup { mode success odds { exact success { fraction } } }
      }
    }"""
    data = graphql(client, query, m=majority["members"], r={"groupMode": "MAJORITY"})
    # At least one of two reaches 4: d10+2 misses on a 1 (1/10), d8+1 on 1–2 (2/8): 39/40.
    assert data["mazeGroupCheck"]["odds"] == {"exact": True, "success": {"fraction": "39/40"}}


def test_rules_and_content_packs_reach_graphql_and_rest(client: httpx.Client) -> None:
    """TAKING HALF ("automatically have a success") as a table setting, and a trait BONUS
    (blank in the text) from a content pack: +2 to Combat raises the total by 2."""
    query = """query($r: MazeRulesInput, $p: JSON, $c: MazeCharacterInput!) {
      half: mazeCheck(die: 12, modifier: 6, dc: 3, takeHalf: true, rules: $r) {
        ... on MazeCheck { band }
      }
      default: mazeCheck(die: 12, modifier: 6, dc: 3, takeHalf: true) {
        ... on MazeCheck { band }
      }
      odds: mazeCheckOdds(die: 12, modifier: 6, dc: 3, rules: $r) {
        ... on MazeCheckOdds { half { band } }
      }
      brawl: mazeCheck(character: $c, skill: "Combat", contentPack: $p, seed: "b") {
        ... on MazeCheck { total dice { value } }
      }
      valid: mazeValidateCharacter(character: $c, contentPack: $p, rules: $r) {
        ... on MazeValidation { valid }
      }
    }"""
    pack = {
        "name": "p",
        "traits": [
            {"name": "Brawler", "kind": "personality", "bonus": {"skill_modifiers": {"Combat": 2}}}
        ],
    }
    skills = [{"name": "Combat", "modifier": 1}]
    hero = {"name": "V", "abilities": ABILITIES, "skills": skills, "traits": ["Brawler"]}
    data = graphql(client, query, r={"halfLevel": "MARGIN"}, p=pack, c=hero)
    assert data["half"] == {"band": "INCREDIBLE_SUCCESS"}
    assert data["default"] == {"band": "SUCCESS"}
    assert data["odds"] == {"half": {"band": "INCREDIBLE_SUCCESS"}}
    brawl = data["brawl"]
    assert brawl["total"] == sum(d["value"] for d in brawl["dice"]) + 1 + 2
    assert data["valid"] == {"valid": True}
    rest = client.post(
        "/v1/maze/checks",
        json={"character": hero, "skill": "Combat", "content_pack": pack, "seed": "b"},
    )
    assert rest.json()["total"] == brawl["total"]


def test_tokens_on_an_automatic_failure_are_refused(client: httpx.Client) -> None:
    """Contentment: the first Ready check "automatically become[s] a Failure"."""
    body = {"die": 10, "dc": 5, "effects": ["contentment"], "tokens": 3}
    response = client.post("/v1/maze/checks", json=body)
    assert response.status_code == 422 and response.json()["code"] == "tokens_not_allowed"


def test_opposed_odds_between_two_rolling_sides_are_exact(client: httpx.Client) -> None:
    """OPPOSED ROLL: PC vs NPC with two d10s: ties (1/11) go to the PC, 6/11."""
    body = {"first": {"die": 10}, "second": {"die": 10, "is_pc": False}, "seed": "o"}
    odds = client.post("/v1/maze/opposed", json=body).json()["odds"]
    assert odds["first_wins"]["fraction"] == "6/11"
    assert odds["tie_per_round"]["fraction"] == "1/11"


def test_a_taken_half_plus_a_token_is_one_point_better_over_rest_and_graphql(
    client: httpx.Client,
) -> None:
    """ADVERSITY TOKENS: "A token is worth one point" — d12+6 vs DC 3 taken half is a
    Success at 4 over; one token is a Major success, as reach says, never Incredible."""
    body = {"die": 12, "modifier": 6, "dc": 3, "take_half": True}
    half = client.post("/v1/maze/checks", json=body).json()
    assert (half["band"], half["margin"]) == ("success", 4)
    assert {r["band"]: r["tokens"] for r in half["reach"]} == {
        "incredible_success": 5,
        "major_success": 1,
    }
    one = client.post("/v1/maze/checks", json={**body, "tokens": 1}).json()
    assert (one["band"], one["margin"], one["total"]) == ("major_success", 5, 8)
    data = graphql(
        client,
        """{ mazeCheck(die: 10, modifier: 4, dc: 3, takeHalf: true, tokens: 1) {
             ... on MazeCheck { band margin } } }""",
    )
    assert data["mazeCheck"] == {"band": "MAJOR_SUCCESS", "margin": 5}


def test_a_sixteen_member_group_check_rolls_with_exact_odds(client: httpx.Client) -> None:
    """GROUP CHECK: "Each character rolls individually" — 16 d12s (once refused as
    distribution_too_large) roll, and a failed group check grants each member its tokens."""
    body = {"members": [{"die": 12}] * 16, "dc": 100, "seed": "sixteen"}
    response = client.post("/v1/maze/group-checks", json=body)
    assert response.status_code == 200, response.text
    group = response.json()
    assert len(group["scores"]) == 16 and group["odds"]["exact"] is True
    chart = {"failure": 1, "miserable_failure": 1, "catastrophic_failure": 2}
    assert group["tokens_awarded"] == [chart.get(group["band"], 0)] * 16
    failing = client.post(
        "/v1/maze/group-checks", json={"members": [{"die": 4}] * 14, "dc": 100, "seed": "s"}
    ).json()
    assert failing["band"] == "catastrophic_failure" and failing["tokens_awarded"] == [2] * 14
    data = graphql(
        client,
        """query($m: [MazeRollerInput!]!) { mazeGroupCheck(members: $m, dc: 90, seed: "g") {
             ... on MazeGroup { tokensAwarded odds { exact } } } }""",
        m=[{"die": 6}] * 12,
    )
    assert data["mazeGroupCheck"]["odds"] == {"exact": True}
    assert len(data["mazeGroupCheck"]["tokensAwarded"]) == 12


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/maze/loot-checks", {"die": 8, "tokens": 1}),
        ("/v1/maze/loot-checks/odds", {"die": 8, "tokens": 1}),
        ("/v1/maze/group-checks", {"members": [{"die": 8}], "tokens": 1}),
        ("/v1/maze/group-checks", {"members": [{"die": 8, "tokens": 1}]}),
    ],
)
def test_tokens_on_loot_and_group_checks_are_refused_by_the_rule(
    client: httpx.Client, path: str, body: dict[str, Any]
) -> None:
    """LOOT CHECK / GROUP CHECK: "You may not apply adversity tokens to these rolls"."""
    response = client.post(path, json=body)
    assert response.status_code == 422
    assert response.json()["code"] == "tokens_not_allowed"
    data = graphql(
        client,
        "{ mazeLootCheck(die: 8, tokens: 1) { ... on Problem { code } } }",
    )
    assert data["mazeLootCheck"] == {"code": "tokens_not_allowed"}


def test_opposed_sides_spend_tokens_take_half_and_carry_effects(client: httpx.Client) -> None:
    """ADVERSITY TOKENS on "any roll that is not a snap roll, loot roll, or group roll";
    EXAMPLE 1: "my half score is 6, and I choose to take half" against the NPC's 5."""
    body = {
        "first": {"die": 10, "modifier": 1, "take_half": True},
        "second": {"total": 5, "is_pc": False},
    }
    half = client.post("/v1/maze/opposed", json=body).json()
    assert half["rounds"] == [[6, 5]] and half["odds"]["first_wins"]["float"] == 1
    tokens = {"first": {"total": 4, "tokens": 2}, "second": {"total": 5, "is_pc": False}}
    assert client.post("/v1/maze/opposed", json=tokens).json()["rounds"] == [[6, 5]]
    data = graphql(
        client,
        """query($a: MazeSideInput!, $b: MazeSideInput!) { mazeOpposedCheck(first: $a, second: $b) {
             ... on MazeOpposed { odds { firstWins { fraction } } } ... on Problem { code } } }""",
        a={"die": 12, "modifier": 2, "effects": ["EXHAUSTION"], "takeHalf": True},
        b={"total": 4, "isPc": False},
    )
    # Exhaustion: a d4, so half is 2 + 2 = 4, a tie the PC wins.
    assert data["mazeOpposedCheck"] == {"odds": {"firstWins": {"fraction": "1/1"}}}


def test_a_damage_roll_answers_the_same_shape_over_rest_and_graphql(
    client: httpx.Client,
) -> None:
    """Issue 13: the odds of each injury are a list, chart order, on both transports."""
    body = {"die": 12, "modifier": 3, "untreated": ["minor"], "seed": "same"}
    rest = client.post("/v1/maze/damage", json=body).json()
    data = graphql(
        client,
        """{ mazeDamageCheck(die: 12, modifier: 3, untreated: [MINOR], seed: "same") {
             ... on MazeDamage { total injury spec { cap check { die kind } }
                                 odds { injury probability { fraction } } } } }""",
    )["mazeDamageCheck"]
    assert data["total"] == rest["total"] and data["injury"] == rest["injury"].upper()
    assert data["spec"] == {"cap": "SERIOUS", "check": {"die": 12, "kind": "DAMAGE"}}
    assert [(o["injury"].lower(), o["probability"]) for o in data["odds"]] == [
        (o["injury"], {"fraction": o["probability"]["fraction"]}) for o in rest["odds"]
    ]
    assert rest["odds"][0]["injury"] == "fatal"  # worst first, as the chart


def test_a_sheet_naming_a_skill_twice_is_refused_on_both_transports(
    client: httpx.Client,
) -> None:
    """A sheet's skills are a list of {name, modifier}: each skill is named once."""
    twice = [{"name": "Combat", "modifier": 1}, {"name": "Combat", "modifier": 2}]
    sheet = {"name": "V", "abilities": ABILITIES, "skills": twice}
    refused = client.post("/v1/maze/characters/validate", json={"character": sheet})
    assert refused.status_code == 422, refused.text
    assert refused.json()["errors"][0]["loc"] == ["character", "skills"]
    data = graphql(
        client,
        """query($c: MazeCharacterInput!) { mazeValidateCharacter(character: $c) {
             ... on Problem { code field } } }""",
        c=sheet,
    )
    assert data["mazeValidateCharacter"]["field"] == "character.skills"


def test_a_sheet_s_sets_are_json_arrays_read_strictly(client: httpx.Client) -> None:
    """A sheet's `effects` and `checked_this_run` are arrays (sets to the rules)."""
    sheet = {"name": "V", "abilities": ABILITIES, "effects": ["exhaustion", "exhaustion"],
             "checked_this_run": ["ready"]}  # fmt: skip
    for character in (sheet, {**sheet, "name": "W"}):
        body = {"character": character, "party": [sheet]}
        answer = client.post("/v1/maze/characters/validate", json=body)
        assert answer.status_code == 200, answer.text
    check = client.post("/v1/maze/checks", json={"character": sheet, "skill": "Combat"})
    assert check.status_code == 200, check.text
    assert check.json()["spec"]["die"] == 4  # Exhaustion: the check rolls a d4
