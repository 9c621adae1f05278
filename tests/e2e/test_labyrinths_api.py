"""Labyrinth definitions through the running server: the presets and checking a custom one."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.e2e

CUSTOM: dict[str, Any] = {
    "name": "Short corridor",
    "dc": 11,
    "deck": {"right_path": 3, "dead_end": 4, "monster": 1, "trap": 2},
    "trap_table": {"entries": [{"low": 1, "high": 6, "name": "Pit", "damage": "1d6"}]},
    "monster_table": {"entries": [{"low": 1, "high": 6, "name": "Ogre"}]},
    "victory": {"right_paths": 3},
}


def test_the_old_maze_paths_are_gone(client: httpx.Client) -> None:
    assert client.get("/v1/mazes/presets").status_code == 404


def test_the_presets_are_listed_with_their_definitions(client: httpx.Client) -> None:
    response = client.get("/v1/labyrinths/presets")
    assert response.status_code == 200
    presets = {p["name"]: p for p in response.json()["presets"]}
    assert {"enchanted_forest_v1", "enchanted_forest_v2", "standard_deck"} <= set(presets)
    forest = presets["enchanted_forest_v1"]
    assert forest["dc"] == 13 and forest["definition"]["deck"]["right_path"] == 5
    # Every preset's definition is itself a valid definition and starts a session.
    for preset in presets.values():
        checked = client.post("/v1/labyrinths/validate", json={"definition": preset["definition"]})
        assert checked.json()["valid"], checked.text
    party = [{"id": "p1", "name": "Ash"}]
    started = client.post("/v1/sessions", json={"definition": forest["definition"], "party": party})
    assert started.status_code == 201, started.text


def test_a_custom_definition_is_checked_with_its_problems_and_warnings(
    client: httpx.Client,
) -> None:
    ok = client.post("/v1/labyrinths/validate", json={"definition": CUSTOM}).json()
    assert ok["valid"] and ok["problems"] == [] and ok["warnings"] == []
    assert ok["definition"]["variant"] == "v2"  # normalised: defaults filled in
    party = [{"id": "p1", "name": "Ash"}]
    started = client.post("/v1/sessions", json={"definition": ok["definition"], "party": party})
    assert started.status_code == 201, started.text

    broken = {**CUSTOM, "dc": 0, "trap_table": {"die": "1d6 >= 3", "entries": [{"low": 1}]}}
    bad = client.post("/v1/labyrinths/validate", json={"definition": broken}).json()
    assert not bad["valid"] and bad["definition"] is None
    assert {(p["field"], p["code"]) for p in bad["problems"]} >= {
        ("dc", "greater_than_equal"),
        ("trap_table.entries.0.high", "missing"),
    }
    unwinnable = {**CUSTOM, "victory": {"right_paths": 9}}
    warned = client.post("/v1/labyrinths/validate", json={"definition": unwinnable}).json()
    assert warned["valid"] and [w["code"] for w in warned["warnings"]] == ["victory_unreachable"]
    refused = client.post("/v1/labyrinths/validate", content=b"{not json")
    assert refused.status_code == 422 and refused.json()["code"] == "invalid_request"


@pytest.mark.parametrize(
    ("die", "rows", "said"),
    [
        ("1d6-10", [(1, 6, "Pit")], "rolls -9 to -4, outside every row"),
        ("1d20", [(1, 6, "Pit")], "rolls 1 to 20; 7 to 20 fall in no row and take"),
        ("1d6", [(1, 2, "Pit"), (5, 6, "Net")], "; 3 to 4 fall in no row"),
        ("1d6", [(1, 2, "Pit"), (4, 6, "Net")], "; 3 falls in no row and takes"),
        ("1d4", [(1, 4, "Pit"), (5, 5, "Net"), (6, 6, "Bees")], "; never rolled: Net, Bees"),
        # What the die can roll is its exact distribution's, not its bounds':
        ("1d6*2", [(2, 6, "Pit")], "rolls 2 to 12; 8 to 12 fall in no row"),
        ("1d6*2", [(1, 1, "Net"), (2, 12, "Pit")], "; never rolled: Net"),
        ("1d6!", [(1, 6, "Pit")], "rolls 1 to 606; 7 to 606 fall in no row"),  # explosions capped
    ],
)
def test_a_table_whose_die_misses_its_rows_is_warned_of(
    client: httpx.Client, die: str, rows: list[tuple[int, int, str]], said: str
) -> None:
    """Valid (a roll outside every row takes the nearest row, docs/RULES.md), and almost
    always an authoring slip: the validator says which totals or rows."""
    entries = [{"low": low, "high": high, "name": name} for low, high, name in rows]
    for table in ("trap_table", "monster_table"):
        definition = {**CUSTOM, table: {"die": die, "entries": entries}}
        checked = client.post("/v1/labyrinths/validate", json={"definition": definition}).json()
        assert checked["valid"], checked
        (warning,) = checked["warnings"]
        assert (warning["code"], warning["field"]) == ("table_rows_missed", f"{table}.die")
        assert f"the die {die} " in warning["message"] and said in warning["message"], warning


@pytest.mark.parametrize(
    ("die", "low", "high"),
    [("2d20kh1", 1, 20), ("4d6kh3", 3, 18), ("1d6/2", 0, 3), ("1d6*2", 2, 12), ("2d6", 2, 12)],
)
def test_a_table_whose_rows_hold_every_total_its_die_rolls_is_not_warned_of(
    client: httpx.Client, die: str, low: int, high: int
) -> None:
    """Keeps, division and products roll a narrower or sparser range than their bounds."""
    entries = [{"low": low, "high": high, "name": "Pit"}]
    definition = {**CUSTOM, "trap_table": {"die": die, "entries": entries}}
    checked = client.post("/v1/labyrinths/validate", json={"definition": definition}).json()
    assert checked["valid"] and checked["warnings"] == [], checked


def test_a_die_of_too_many_totals_is_checked_by_its_bounds(client: httpx.Client) -> None:
    """190,000 distinct totals, a thousand rows: only what lies past its bounds is said
    (each total is not placed), so the check stays a matter of milliseconds."""
    rows = [{"low": k * 10 - 9990, "high": k * 10 - 9990, "name": f"r{k}"} for k in range(999)]
    rows.append({"low": 9999, "high": 9999, "name": "Beyond"})
    definition = {**CUSTOM, "trap_table": {"die": "1d10000*20+1d19", "entries": rows}}
    checked = client.post("/v1/labyrinths/validate", json={"definition": definition}).json()
    assert checked["valid"], checked
    assert [w["message"] for w in checked["warnings"]] == [
        "the die 1d10000*20+1d19 rolls 21 to 200019; never rolled: r0, r1, r2, r3, r4, r5, "
        "r6, r7 and 991 more"  # `Beyond` (9999) lies within its bounds: not said
    ], checked["warnings"]


def test_labyrinth_definitions_over_graphql(client: httpx.Client) -> None:
    query = """query($d: JSON) {
      labyrinthPresets { ... on LabyrinthPresets { presets { name title dc variant definition } } }
      validateLabyrinthDefinition(definition: $d) { ... on LabyrinthDefinitionReport {
        valid definition problems { field code message } warnings { code } } } }"""
    response = client.post("/graphql", json={"query": query, "variables": {"d": CUSTOM}})
    assert response.status_code == 200 and "errors" not in response.json(), response.text
    data = response.json()["data"]
    assert "enchanted_forest_v2" in [p["name"] for p in data["labyrinthPresets"]["presets"]]
    assert data["validateLabyrinthDefinition"]["valid"]
    rest = client.post("/v1/labyrinths/validate", json={"definition": CUSTOM}).json()
    assert data["validateLabyrinthDefinition"]["definition"] == rest["definition"]
    nothing = client.post("/graphql", json={"query": query, "variables": {"d": None}}).json()
    report = nothing["data"]["validateLabyrinthDefinition"]
    assert not report["valid"] and report["problems"][0]["code"] == "model_type"


def test_the_labyrinth_rule_settings_are_taken_and_checked_where_a_maze_is_given(
    client: httpx.Client,
) -> None:
    forest = next(
        p for p in client.get("/v1/labyrinths/presets").json()["presets"]
        if p["name"] == "enchanted_forest_v1"
    )["definition"]  # fmt: skip
    # v1's removal roll is on in the v1 preset, rerolled; Dead Ends leave the game.
    assert forest["settings"]["action_removal_roll"] == "reroll"
    assert forest["settings"]["dead_ends_removed_to"] == "game"
    four = [{"id": f"p{i}", "name": f"Runner {i}"} for i in range(1, 5)]
    literal = {**forest, "settings": {"action_removal_roll": "as_printed"}}
    started = client.post("/v1/sessions", json={"definition": literal, "party": four})
    assert started.status_code == 201, started.text
    session = started.json()
    gm = {"authorization": f"Bearer {session['gm_token']}"}
    feed = client.get(f"/v1/sessions/{session['session_id']}/events", headers=gm).json()
    assert "ActionsRemoved" in [e["type"] for e in feed["events"]]

    bad = {**forest, "settings": {"action_removal_roll": "sometimes"}}
    checked = client.post("/v1/labyrinths/validate", json={"definition": bad}).json()
    assert [(p["field"], p["code"]) for p in checked["problems"]] == [
        ("settings.action_removal_roll", "literal_error")
    ]
    refused = client.post("/v1/sessions", json={"definition": bad, "party": four})
    assert refused.status_code == 422 and refused.json()["code"] == "invalid_request"
    mutation = """mutation($d: JSON, $p: [PartyMemberInput!]!) {
      createSession(definition: $d, party: $p) { __typename ... on Problem { code } } }"""
    answer = client.post(
        "/graphql", json={"query": mutation, "variables": {"d": bad, "p": four}}
    ).json()
    assert answer["data"]["createSession"] == {"__typename": "Problem", "code": "invalid_request"}


def test_a_table_expression_that_can_divide_by_zero_is_a_problem_not_a_dead_card(
    client: httpx.Client,
) -> None:
    """`trap_table.die: "1d6/0"` used to validate, then fail `division_by_zero` on every
    trap card revealed; it is refused where it is given, naming the field."""
    trap = {"die": "1d6/0", "entries": [{"low": 1, "high": 6, "name": "Pit"}]}
    monster = {"entries": [{"low": 1, "high": 6, "name": "Ogre", "initiative": "1d20/0"}]}
    for changes, field in (
        ({"trap_table": trap}, "trap_table.die"),
        ({"monster_table": monster}, "monster_table.entries.0.initiative"),
    ):
        definition = {**CUSTOM, **changes}
        bad = client.post("/v1/labyrinths/validate", json={"definition": definition}).json()
        assert not bad["valid"] and bad["problems"][0]["field"] == field, bad
        assert "(division_by_zero)" in bad["problems"][0]["message"]
        party = [{"id": "p1", "name": "Ash"}]
        started = client.post("/v1/sessions", json={"definition": definition, "party": party})
        assert started.status_code == 422 and started.json()["code"] == "constraint_violation"
        loc = ["definition", *(int(p) if p.isdigit() else p for p in field.split("."))]
        assert started.json()["errors"][0]["loc"] == loc, started.text


def test_a_profile_is_refused_for_what_is_wrong_with_it(client: httpx.Client) -> None:
    """A CheckProfile's bad expression is named at its stat (no "Unable to extract tag
    using discriminator 'system'" first); one a roll can fail on is refused with it."""
    stats = dict.fromkeys(("STR", "DEX", "INT", "WIS", "CHA"), "1d20")
    for profile, loc, says in (
        ({"stats": {**stats, "STR": "d66"}}, ["stats", "STR"], "is not dice notation"),
        ({"stats": stats, "disarm": "1d20/(1d2-1)"}, ["disarm"], "(division_by_zero)"),
        ({"stats": stats, "initiative": "1d6/(1d2-1)"}, ["initiative"], "(division_by_zero)"),
    ):
        party = [{"id": "p1", "name": "Ash", "profile": profile}]
        refused = client.post(
            "/v1/sessions", json={"preset": "enchanted_forest_v2", "party": party}
        )
        assert refused.status_code == 422, refused.text
        body = refused.json()
        assert body["code"] == "constraint_violation" and len(body["errors"]) == 1, body
        assert body["errors"][0]["loc"] == ["party", 0, "profile", "CheckProfile", *loc]
        assert says in body["errors"][0]["msg"]


def test_graphql_names_a_refused_profile_field_as_its_profile_input_spells_it(
    client: httpx.Client,
) -> None:
    stats = dict.fromkeys(("STR", "DEX", "INT", "WIS", "CHA"), "1d20")
    query = """mutation($p: [PartyMemberInput!]!) {
      createSession(preset: "enchanted_forest_v2", party: $p) {
        __typename ... on Problem { code field } } }"""
    for profile, field in (
        ({"checks": {"stats": {**stats, "STR": "d66"}}}, "party.0.profile.checks.stats.STR"),
        ({"fiveE": {"modifiers": {"STR": 99}}}, "party.0.profile.fiveE.modifiers.STR"),
    ):
        party = [{"id": "p1", "name": "Ash", "profile": profile}]
        answer = client.post("/graphql", json={"query": query, "variables": {"p": party}}).json()
        assert "errors" not in answer, answer
        assert answer["data"]["createSession"]["field"] == field, answer
