"""GraphQL dice fields, through a real HTTP client against the running server."""

from __future__ import annotations

import hashlib
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.e2e

ROLL_FIELDS = """
    __typename
    ... on RollResult {
        expression total seed
        check { success margin op total target }
        dice { order term die sides face value active flags label }
        formula rng { algorithm seed commitmentId hash clientSeed nonce }
        tree { type value first { type value notation throws { face value flags } } }
        foundry diceSoNice
    }
    ... on Problem { code message field position expected }
"""


def graphql(client: httpx.Client, query: str, **variables: Any) -> dict[str, Any]:
    response = client.post("/graphql", json={"query": query, "variables": variables})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert "errors" not in body, body
    data: dict[str, Any] = body["data"]
    return data


def roll(client: httpx.Client, expression: str, seed: str | None = None) -> dict[str, Any]:
    query = f"""query($e: String!, $s: String) {{
        roll(expression: $e, seed: $s, render: [FOUNDRY, DICE_SO_NICE]) {{ {ROLL_FIELDS} }} }}"""
    result: dict[str, Any] = graphql(client, query, e=expression, s=seed)["roll"]
    return result


def _camel(value: Any) -> Any:
    """A REST answer spelled as GraphQL spells it (camelCase keys)."""
    if isinstance(value, list):
        return [_camel(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for key, item in value.items():
        head, *rest = key.split("_")
        out[head + "".join(w.title() for w in rest)] = _camel(item)
    return out


def test_graphql_answers_the_shape_rest_does_for_the_same_seed(client: httpx.Client) -> None:
    body = {"expression": "1d10!+2", "seed": "abc", "render": ["foundry", "dice_so_nice"]}
    rest = client.post("/v1/dice/roll", json=body).json()
    first = roll(client, "1d10!+2", "abc")
    assert first == roll(client, "1d10!+2", "abc")
    assert first["__typename"] == "RollResult"
    assert first["seed"] == "abc" and first["rng"]["seed"] == "abc"
    expected = _camel(rest)
    # The free-form renderings travel as they are; everything typed is camelCased.
    assert (first["foundry"], first["diceSoNice"]) == (rest["foundry"], rest["dice_so_nice"])
    for key in ("expression", "formula", "total", "check", "dice", "rng"):
        got = first[key]
        if key == "dice":  # enum values are upper case in GraphQL
            got = [{**d, "flags": [f.lower() for f in d["flags"]]} for d in got]
        if key == "rng":  # the fair fields a seeded roll leaves null
            got = {k: v for k, v in got.items() if v is not None}
        assert got == expected[key], key
    assert first["tree"]["value"] == rest["tree"]["value"]
    assert first["tree"]["type"] == rest["tree"]["type"].upper()


def test_a_graphql_roll_without_seed_can_be_replayed(client: httpx.Client) -> None:
    first = roll(client, "3d6")
    assert first["seed"]
    assert roll(client, "3d6", first["seed"])["dice"] == first["dice"]


def test_a_check_exposes_success_and_margin(client: httpx.Client) -> None:
    result = roll(client, "2d6+1 >= 9", "seed")
    check = result["check"]
    assert check["op"] == ">=" and check["target"] == 9
    assert check["success"] == (result["total"] >= 9)
    assert result["foundry"]["total"] == result["total"]
    assert "throws" in result["diceSoNice"]


def test_a_syntax_error_is_a_problem_with_its_position(client: httpx.Client) -> None:
    result = roll(client, "2d6 + + )")
    assert result["__typename"] == "Problem"
    assert result["code"] == "syntax_error"
    assert isinstance(result["position"], int)


@pytest.mark.parametrize(
    "expression", ["1d1!", "999999999d999999999", "(" * 5000 + "1" + ")" * 5000]
)
def test_limits_are_problems(client: httpx.Client, expression: str) -> None:
    result = roll(client, expression)
    assert result["__typename"] == "Problem"
    assert result["code"]


def test_probability_of_a_maze_rats_save_is_five_twelfths(client: httpx.Client) -> None:
    query = """query($e: String!) { probability(expression: $e) {
        __typename
        ... on ProbabilityReport {
            expression min max mean stddev exact tail { fraction }
            check { op success { fraction float exact errorBound } failure { fraction } }
            distribution { value fraction float }
            percentiles { percent value }
        }
        ... on Problem { code message }
    } }"""
    report = graphql(client, query, e="2d6+1 >= 9")["probability"]
    assert report["__typename"] == "ProbabilityReport", report
    assert report["check"]["success"] == {
        "fraction": "5/12",
        "float": pytest.approx(5 / 12),
        "exact": True,
        "errorBound": "0/1",
    }
    assert report["check"]["failure"]["fraction"] == "7/12"
    assert report["exact"] is True and report["tail"]["fraction"] == "0/1"
    assert (report["min"], report["max"]) == (3, 13)
    assert report["mean"] == pytest.approx(8.0)
    assert {"percent": 50, "value": 8} in report["percentiles"]
    assert {"value": 8, "fraction": "1/6", "float": pytest.approx(1 / 6)} in report["distribution"]
    rest = client.post("/v1/dice/probability", json={"expression": "2d6+1 >= 9"}).json()
    assert rest["percentiles"] == report["percentiles"]
    assert rest["check"]["success"]["fraction"] == "5/12"


def test_verify_roll_checks_the_hash(client: httpx.Client) -> None:
    seed = "graphql-server-seed"
    query = """query($e: String!, $s: String!, $c: String!, $n: Long!, $h: String!) {
        verifyRoll(expression: $e, serverSeed: $s, clientSeed: $c, nonce: $n, hash: $h) {
            __typename
            ... on Verification { hashMatches roll { total dice { face } } }
            ... on Problem { code }
        } }"""
    digest = hashlib.sha256(seed.encode()).hexdigest()
    result = graphql(client, query, e="1d20", s=seed, c="me", n=0, h=digest)["verifyRoll"]
    assert result["__typename"] == "Verification"
    assert result["hashMatches"] is True
    rest = client.post(
        "/v1/dice/verify",
        json={
            "expression": "1d20",
            "server_seed": seed,
            "client_seed": "me",
            "nonce": 0,
            "hash": digest,
        },
    ).json()
    assert result["roll"]["total"] == rest["roll"]["total"]
    refused = graphql(client, query, e="1d20", s=seed, c="me", n=0, h="é" * 64)["verifyRoll"]
    assert (refused["__typename"], refused["code"]) == ("Problem", "invalid_request")


def test_the_fair_flow_refuses_an_early_reveal(client: httpx.Client) -> None:
    created = graphql(
        client,
        """mutation { createCommitment(ttlSeconds: 60) {
            __typename ... on Commitment { commitmentId hash expiresAt }
            ... on Problem { code } } }""",
    )["createCommitment"]
    assert created["__typename"] == "Commitment"
    rolled = graphql(
        client,
        f"""mutation($id: String!) {{ fairRoll(commitmentId: $id, clientSeed: "me", nonce: 1,
            expression: "1d10!+2", render: [FOUNDRY, DICE_SO_NICE]) {{ {ROLL_FIELDS} }} }}""",
        id=created["commitmentId"],
    )["fairRoll"]
    assert rolled["__typename"] == "RollResult"
    assert rolled["rng"]["commitmentId"] == created["commitmentId"]
    assert rolled["rng"]["nonce"] == 1 and rolled["rng"]["clientSeed"] == "me"
    revealed = graphql(
        client,
        """mutation($id: String!) { revealCommitment(commitmentId: $id) {
            __typename ... on Reveal { serverSeed } ... on Problem { code message } } }""",
        id=created["commitmentId"],
    )["revealCommitment"]
    assert revealed == {
        "__typename": "Problem",
        "code": "commitment_active",
        "message": revealed["message"],
    }


def test_an_out_of_range_argument_is_an_invalid_request_problem(client: httpx.Client) -> None:
    result = graphql(
        client,
        """mutation { createCommitment(ttlSeconds: 5) {
            __typename ... on Problem { code message field } } }""",
    )["createCommitment"]
    assert result["__typename"] == "Problem"
    assert result["code"] == "invalid_request"
    assert result["field"] == "ttlSeconds"  # the argument as GraphQL spells it


def test_a_malformed_query_is_reported_not_masked(client: httpx.Client) -> None:
    response = client.post("/graphql", json={"query": "{ roll(expression: 1) { nope } }"})
    errors = response.json()["errors"]
    assert errors and all(e["message"] != "Internal error." for e in errors)


def test_values_and_nonces_beyond_32_bits_travel_as_long(client: httpx.Client) -> None:
    query = """query($n: Long!, $h: String!) {
        roll(expression: "1d10000 * 1d10000 * 1d10000", seed: "big") {
            ... on RollResult { total } }
        verifyRoll(expression: "1d20", serverSeed: "s", clientSeed: "c", nonce: $n, hash: $h) {
            ... on Verification { roll { total } } } }"""
    data = graphql(client, query, n=3_000_000_000, h="0" * 64)
    rest = client.post(
        "/v1/dice/roll", json={"expression": "1d10000 * 1d10000 * 1d10000", "seed": "big"}
    ).json()
    assert data["roll"]["total"] == rest["total"]
    verified = client.post(
        "/v1/dice/verify",
        json={
            "expression": "1d20",
            "server_seed": "s",
            "client_seed": "c",
            "nonce": 3_000_000_000,
            "hash": "0" * 64,
        },
    ).json()
    assert data["verifyRoll"]["roll"]["total"] == verified["roll"]["total"]


def test_a_query_with_too_many_aliases_is_refused_before_any_work(client: httpx.Client) -> None:
    fields = " ".join(
        f'a{i}: probability(expression: "60d10!") {{ ... on ProbabilityReport {{ mean }} }}'
        for i in range(30)
    )
    body = client.post("/graphql", json={"query": "{ " + fields + " }"}).json()
    assert body.get("data") is None
    assert "aliases" in body["errors"][0]["message"]
