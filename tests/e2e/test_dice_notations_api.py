"""Issue 19's dice notations over REST (/v1/dice/roll, /v1/dice/probability) and GraphQL
(`roll`, `probability`), through a real HTTP client against the running server."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.e2e.test_graphql_dice import graphql

pytestmark = pytest.mark.e2e

PROBLEM = "application/problem+json"

# (notation, a value it can reach, that value's exact probability)
NOTATIONS = [
    ("4dF", 4, "1/81"),  # Fate dice
    ("{1d20+5, 1d20+3}kh1", 25, "1/20"),  # dice group, keep highest item
    ("1d8[fire] + 2d6[cold]", 20, "1/288"),  # labels
    ("4d6min2", 8, "1/81"),  # per-die minimum
    ("4d6ma5", 20, "1/81"),  # per-die maximum, short spelling
    ("3d10cs>=8cf1", 3, "27/1000"),  # Foundry success/failure counting
    ("d{1,1,2,3}", 1, "1/2"),  # custom faces
    ("d66t", 66, "1/36"),  # the tables' d66
    ("ceil(1d6/2) + abs(1d4-4)", 6, "1/12"),  # functions
    ("2d6!kh1", 6, "11/36"),  # keep over an exploding pool: a six shows (then explodes)
]


def rest_roll(client: httpx.Client, expression: str, **extra: Any) -> dict[str, Any]:
    response = client.post("/v1/dice/roll", json={"expression": expression, **extra})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


GQL_ROLL = """query($e: String!, $s: String) {
  roll(expression: $e, seed: $s, render: [FOUNDRY, DICE_SO_NICE]) {
    __typename
    ... on RollResult { total seed dice { face value active flags label } foundry diceSoNice }
    ... on Problem { code message position expected } } }"""

GQL_PROBABILITY = """query($e: String!) { probability(expression: $e) {
    __typename
    ... on ProbabilityReport { exact distribution { value fraction } }
    ... on Problem { code message } } }"""


@pytest.mark.parametrize(("expression", "value", "fraction"), NOTATIONS)
def test_each_new_notation_rolls_and_has_exact_odds_over_rest(
    client: httpx.Client, expression: str, value: int, fraction: str
) -> None:
    roll = rest_roll(client, expression, seed="issue-19", render=["foundry", "dice_so_nice"])
    assert roll["foundry"]["total"] == roll["total"]
    assert roll["dice_so_nice"]["throws"][0]["dice"]
    response = client.post("/v1/dice/probability", json={"expression": expression})
    assert response.status_code == 200, response.text
    points = {p["value"]: p["fraction"] for p in response.json()["distribution"]}
    assert points[value] == fraction
    assert roll["total"] in points


@pytest.mark.parametrize(("expression", "value", "fraction"), NOTATIONS)
def test_each_new_notation_rolls_and_has_exact_odds_over_graphql(
    client: httpx.Client, expression: str, value: int, fraction: str
) -> None:
    rolled = graphql(client, GQL_ROLL, e=expression, s="issue-19")["roll"]
    assert rolled["__typename"] == "RollResult", rolled
    rest = rest_roll(client, expression, seed="issue-19")
    assert rolled["total"] == rest["total"]
    assert [(d["face"], d["value"], d["label"]) for d in rolled["dice"]] == [
        (d["face"], d["value"], d.get("label")) for d in rest["dice"]
    ]
    assert rolled["foundry"]["total"] == rolled["total"]
    report = graphql(client, GQL_PROBABILITY, e=expression)["probability"]
    assert report["__typename"] == "ProbabilityReport", report
    points = {p["value"]: p["fraction"] for p in report["distribution"]}
    assert points[value] == fraction


def test_labels_reach_the_per_die_output_and_foundry_flavor(client: httpx.Client) -> None:
    """ "Labels: `1d8[fire] + 2d6[cold]`, carried into the per-die output and into
    Foundry's flavor." """
    expression = "1d8[fire] + 2d6[cold]"
    roll = rest_roll(client, expression, seed="labels", render=["foundry"])
    assert [d["label"] for d in roll["dice"]] == ["fire", "cold", "cold"]
    flavors = [t["options"].get("flavor") for t in roll["foundry"]["terms"] if "faces" in t]
    assert flavors == ["fire", "cold"]
    rolled = graphql(client, GQL_ROLL, e=expression, s="labels")["roll"]
    assert [d["label"] for d in rolled["dice"]] == ["fire", "cold", "cold"]


def test_a_dice_group_marks_the_dropped_item_over_both_apis(client: httpx.Client) -> None:
    roll = rest_roll(client, "{1d20+5, 1d20+3}kh1", seed="group")
    kept = [d for d in roll["dice"] if d["active"]]
    dropped = [d for d in roll["dice"] if not d["active"]]
    assert len(kept) == 1 and len(dropped) == 1 and "dropped" in dropped[0]["flags"]
    rolled = graphql(client, GQL_ROLL, e="{1d20+5, 1d20+3}kh1", s="group")["roll"]
    assert rolled["foundry"]["terms"][0]["class"] == "PoolTerm"


@pytest.mark.parametrize(
    ("expression", "status", "code"),
    [
        ("d66", 400, "ambiguous_notation"),
        ("4d6k>3", 400, "ambiguous_notation"),
        ("{1d20, 1d20}kh1>=15", 400, "ambiguous_notation"),
        ("4dF!", 422, "invalid_explosion"),
        ("{4d6}kh1", 422, "invalid_group"),
        ("4d6min5max2", 422, "invalid_dice"),
        ("d{1..20000}", 422, "too_many_sides"),
        ("floor(1, 2)", 400, "syntax_error"),
        ("1d8[fire", 400, "syntax_error"),
    ],
)
def test_bad_new_notation_is_a_problem_with_a_stable_code(
    client: httpx.Client, expression: str, status: int, code: str
) -> None:
    for endpoint in ("/v1/dice/roll", "/v1/dice/probability"):
        response = client.post(endpoint, json={"expression": expression})
        assert response.status_code == status, response.text
        assert response.headers["content-type"].startswith(PROBLEM)
        assert response.json()["code"] == code
    rolled = graphql(client, GQL_ROLL, e=expression)["roll"]
    assert rolled["__typename"] == "Problem" and rolled["code"] == code


def test_ambiguous_spellings_name_both_readings(client: httpx.Client) -> None:
    """ "refuse ambiguous spellings with a clear error (stable code) whose message names
    the two readings and the unambiguous spellings." """
    body = client.post("/v1/dice/roll", json={"expression": "4d6k>3"}).json()
    assert "keep the dice above 3" in body["detail"] and "keep the highest" in body["detail"]
    problem = graphql(client, GQL_ROLL, e="d66")["roll"]
    assert problem["expected"] == ["d66t", "d{1..66}"]


@pytest.mark.parametrize(("expression", "position"), [("d66", 0), ("1d6+d66", 4)])
def test_an_ambiguous_d66_reports_the_position_its_message_names(
    client: httpx.Client, expression: str, position: int
) -> None:
    """0-based, as every other code: the field used to say one more than the message."""
    body = client.post("/v1/dice/roll", json={"expression": expression}).json()
    assert body["code"] == "ambiguous_notation" and body["position"] == position
    assert f"at position {position}" in body["detail"]


def test_an_unsupported_exploding_drop_is_a_distribution_problem(client: httpx.Client) -> None:
    response = client.post("/v1/dice/probability", json={"expression": "4d6!dl1"})
    assert response.status_code == 422
    assert response.json()["code"] == "distribution_unsupported"
    assert rest_roll(client, "4d6!dl1", seed="x")["total"] >= 3
