"""Every rules call that rolls shows its dice like `/v1/dice/roll` when asked (`render`),
over REST and GraphQL alike, without changing what it rolled."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.e2e

ROLLING: list[tuple[str, dict[str, Any]]] = [
    ("maze/checks", {"die": 10, "modifier": 1, "dc": 6}),
    ("maze/damage", {"die": 12, "modifier": 3, "untreated": ["minor"]}),
    ("maze/loot-checks", {"die": 12, "modifier": 2}),
    ("maze/group-checks", {"members": [{"die": 10, "modifier": 2}, {"die": 8}], "dc": 12}),
    ("maze/opposed", {"first": {"die": 10}, "second": {"die": 10, "is_pc": False}}),
    ("mazerats/saves", {"ability": 1}),
    ("mazerats/opposed-saves", {"attacker_bonus": 1}),
    ("mazerats/attacks", {"combat_bonus": 1, "ac": 6}),
    ("mazerats/spell-casts", {"spell": {"base": 4, "corruption_discount": 1}, "hp": 6, "will": 1}),
    ("mazerats/reactions", {"leader_will": 1}),
    ("mazerats/morale", {"will": 1, "force": True}),
    ("mazerats/initiative", {}),
    ("mazerats/healing", {"hp": 2, "max_hp": 8, "method": "bandage", "will": 1}),
    ("haze/actions", {"action": {"ability": 6, "skill": 2}}),
    ("haze/effects", {"dice": 3}),
    ("haze/reactions", {"attack": {"ability": 5}, "defence": {"ability": 4}}),
    ("haze/initiative", {"combatants": [{"name": "Ann", "wits": 9}, {"name": "Bo", "wits": 2}]}),
    ("haze/ability-checks", {"check": "lift", "ability": 6, "skill": 1, "weight_lb": 250}),
    (
        "haze/spells/cast",
        {
            "spell": {"name": "fireball", "school": "fire", "difficulty": 3},
            "school_score": 4,
            "ability": 6,
            "level": 2,
        },
    ),
]


def _post(client: httpx.Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/v1/{path}", json=body)
    assert response.status_code == 200, (path, response.text)
    answer: dict[str, Any] = response.json()
    return answer


def _foundry_faces(foundry: dict[str, Any]) -> list[int]:
    return [r["result"] for t in foundry["terms"] if t["class"] == "Die" for r in t["results"]]


@pytest.mark.parametrize(("path", "body"), ROLLING, ids=[p for p, _ in ROLLING])
def test_a_rules_roll_shows_each_die_for_a_vtt_and_rolls_the_same_with_or_without(
    client: httpx.Client, path: str, body: dict[str, Any]
) -> None:
    seeded = {**body, "seed": f"render-{path}"}
    plain = _post(client, path, seeded)
    assert "dice_rolls" not in plain
    shown = _post(client, path, {**seeded, "render": ["foundry", "dice_so_nice"]})
    rolls = shown.pop("dice_rolls")
    assert shown == plain  # asking for the dice changes nothing the rules decided
    assert rolls, path
    for rolled in rolls:
        dice = rolled["dice"]
        assert dice and all(1 <= d["face"] <= d["sides"] for d in dice), rolled
        assert "seed" not in rolled and "rng" not in rolled  # the call's seed replays all
        assert rolled["foundry"]["total"] == rolled["total"]
        assert _foundry_faces(rolled["foundry"]) == [d["face"] for d in dice], rolled["foundry"]
        assert rolled["dice_so_nice"], rolled
    bare = _post(client, path, {**seeded, "render": []})["dice_rolls"]
    renderings = ("foundry", "dice_so_nice")
    assert [{k: v for k, v in r.items() if k not in renderings} for r in rolls] == bare


def test_a_maze_checks_dice_are_the_dice_it_rolled(client: httpx.Client) -> None:
    check = _post(client, "maze/checks", {"die": 6, "modifier": 2, "dc": 7, "render": []})
    (rolled,) = check["dice_rolls"]
    assert rolled["expression"] == "1d6!+2" and rolled["total"] == check["total"]
    assert [d["face"] for d in rolled["dice"]] == [d["face"] for d in check["dice"]]


def test_a_render_that_is_not_a_rendering_is_refused(client: httpx.Client) -> None:
    response = client.post("/v1/maze/checks", json={"die": 6, "dc": 7, "render": ["obs"]})
    assert response.status_code == 422 and response.json()["code"] == "invalid_request"


GRAPHQL = """query($seed: String!) {
  mazeCheck(die: 10, modifier: 1, dc: 6, seed: $seed, render: [FOUNDRY]) {
    ... on MazeCheck { diceRolls { expression total dice { face sides } foundry } }
  }
  mazeRatsSave(ability: 1, seed: $seed, render: []) {
    ... on MazeRatsSave { diceRolls { expression total dice { face sides } } }
  }
  quiet: mazeRatsSave(ability: 1, seed: $seed) { ... on MazeRatsSave { diceRolls { total } } }
  hazeAction(action: {ability: 6, skill: 2}, seed: $seed, render: [DICE_SO_NICE]) {
    ... on HazeActionResult {
      diceRolls { expression dice { face } diceSoNice }
    }
  }
}"""


def test_graphql_shows_the_same_dice_as_rest_for_the_same_seed(client: httpx.Client) -> None:
    response = client.post("/graphql", json={"query": GRAPHQL, "variables": {"seed": "parity"}})
    assert response.status_code == 200 and "errors" not in response.json(), response.text
    data = response.json()["data"]
    rest = _post(client, "maze/checks", {"die": 10, "modifier": 1, "dc": 6, "seed": "parity",
                                         "render": ["foundry"]})["dice_rolls"]  # fmt: skip
    graph = data["mazeCheck"]["diceRolls"]
    assert [(r["expression"], r["total"], r["foundry"]) for r in graph] == [
        (r["expression"], r["total"], r["foundry"]) for r in rest
    ]
    assert [d["face"] for d in graph[0]["dice"]] == [d["face"] for d in rest[0]["dice"]]
    save = _post(client, "mazerats/saves", {"ability": 1, "seed": "parity", "render": []})
    assert data["mazeRatsSave"]["diceRolls"][0]["total"] == save["dice_rolls"][0]["total"]
    assert data["quiet"] == {"diceRolls": None}  # as over REST: no `render`, no dice
    action = data["hazeAction"]["diceRolls"]
    assert action and all(r["diceSoNice"] for r in action)
