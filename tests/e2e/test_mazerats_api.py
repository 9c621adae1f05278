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
    assert odds["damage"][0] == {"damage": 0, "fraction": "5/18", "float": 5 / 18}


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
            ... on MazeRatsSaveOdds { bonus success { fraction } }
          }
          bad: mazeRatsSaveOdds(ability: 9) { __typename ... on Problem { code field } }
        }""",
    )
    save = data["mazeRatsSave"]
    assert save["__typename"] == "MazeRatsSave" and save["seed"] == "g"
    assert save["success"] == (save["total"] >= 9)
    assert data["mazeRatsSaveOdds"] == {"bonus": 2, "success": {"fraction": "7/12"}}
    assert data["bad"] == {"__typename": "Problem", "code": "invalid_request", "field": "ability"}


def test_graphql_attack_odds_and_problem(client: httpx.Client) -> None:
    data = gql(
        client,
        """{
          mazeRatsAttackOdds(combatBonus: 1, ac: 6, heavyWeapon: true) {
            ... on MazeRatsAttackOdds {
              hit { fraction } meanDamage { fraction } damage { damage fraction }
            }
          }
          mazeRatsAttack(ranged: true, inCloseCombat: true) { ... on Problem { code } }
          mazeRatsOpposedSaveOdds { ... on MazeRatsOpposedOdds { tie { fraction } } }
        }""",
    )
    odds = data["mazeRatsAttackOdds"]
    assert odds["hit"]["fraction"] == "13/18" and odds["meanDamage"]["fraction"] == "3/1"
    assert odds["damage"][-1] == {"damage": 8, "fraction": "1/36"}
    assert data["mazeRatsAttack"] == {"code": "ranged_in_close_combat"}
    assert data["mazeRatsOpposedSaveOdds"]["tie"]["fraction"] == "73/648"


def test_graphql_character_is_valid_and_identical_for_the_same_seed(
    client: httpx.Client,
) -> None:
    query = """{ mazeRatsCharacter(seed: "hero") { ... on MazeRatsCharacter {
        seed name level xp abilityRow abilities { strength dexterity will } maxHp hp
        combatBonus paths { dice entry } gearPackage gear { armor shield weapon }
        weapon { dice entry } armorClass items { dice entry } appearance { dice entry }
        detail { dice entry } sigilSlots sigils } } }"""
    first = gql(client, query)["mazeRatsCharacter"]
    assert first == gql(client, query)["mazeRatsCharacter"]
    assert first["maxHp"] == 6 and len(first["items"]) == 6 and len(first["paths"]) == 1
    rest = client.post("/v1/mazerats/characters", json={"seed": "hero"}).json()
    # The same sheet on both transports: GraphQL camelCases its keys, enums upper-cased.
    assert first["abilityRow"] == rest["ability_row"] and first["items"] == rest["items"]
    assert first["gear"]["armor"] == rest["gear"]["armor"].upper()
    assert first["gearPackage"] == rest["gear_package"] and first["detail"] == rest["detail"]


def test_graphql_sigils_spell_cost_market_and_hirelings(client: httpx.Client) -> None:
    data = gql(
        client,
        """{
          mazeRatsSigils(seed: "shop", count: 2, realm: CORPOREAL) {
            ... on MazeRatsSigils { sigils { name realm part rolls { table dice entry } } }
          }
          mazeRatsSpellCost(base: 2, extraTargets: 1, corruptionDiscount: 1) {
            ... on MazeRatsSpellCost { cost tier corruptionSave breakdown { corruption } }
          }
          mazeRatsMarket { ... on MazeRatsMarket { wares { name price { low per } } } }
          mazeRatsHirelings { ... on MazeRatsHirelings { hirelings { name ac } } }
        }""",
    )
    assert all(s["realm"] == "CORPOREAL" for s in data["mazeRatsSigils"]["sigils"])
    assert data["mazeRatsSpellCost"] == {
        "cost": 2,
        "tier": "MINOR",
        "corruptionSave": True,
        "breakdown": {"corruption": -1},
    }
    assert data["mazeRatsMarket"]["wares"][0]["name"] == "Light Weapon"
    assert len(data["mazeRatsHirelings"]["hirelings"]) == 6


def post(client: httpx.Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/v1/mazerats/{path}", json=body)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def refused(client: httpx.Client, path: str, body: dict[str, Any], code: str) -> None:
    response = client.post(f"/v1/mazerats/{path}", json=body)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    assert response.json()["code"] == code


def test_rest_reactions_morale_and_initiative(client: httpx.Client) -> None:
    """'the party leader may make a WIL save to determine if they are cooperative'"""
    reaction = post(client, "reactions", {"leader_will": 1, "seed": "r"})
    assert reaction["cooperative"] == reaction["save"]["success"]
    assert reaction["cooperative_odds"] == {"fraction": "5/12", "float": 5 / 12}
    assert reaction == post(client, "reactions", {"leader_will": 1, "seed": "r"})
    # "their leader or half of their group is defeated, they lose half of their HP"
    calm = post(client, "morale", {"group_size": 4, "defeated": 1, "seed": "m"})
    assert (calm["due"], calm["morale"]) == (False, None)
    broken = post(client, "morale", {"group_size": 4, "defeated": 2, "seed": "m"})
    assert broken["due"] and broken["morale"]["holds"] == broken["morale"]["save"]["success"]
    # "If one group surprises another, it gains initiative and acts first."
    first = post(client, "initiative", {"surprised": "party", "surprised_wills": [0, 2]})
    assert (first["first"], first["by_surprise"], len(first["surprised"])) == (
        "opponents",
        True,
        2,
    )


def test_rest_healing_is_half_the_damage_once_a_day(client: httpx.Client) -> None:
    """'Heal half your damage (rounded up) by eating a ration during a rest ... Each works
    once per day.'"""
    healed = post(client, "healing", {"method": "ration", "hp": 1, "max_hp": 6, "resting": True})
    assert (healed["healed"], healed["hp"], healed["used_today"]) == (3, 4, ["ration"])
    body = {"method": "ration", "hp": 1, "max_hp": 6, "resting": True, "used_today": ["ration"]}
    refused(client, "healing", body, "healing_used_today")
    bandage = post(client, "healing", {"method": "bandage", "hp": 2, "max_hp": 6, "seed": "b"})
    assert bandage["healed"] == (2 if bandage["save"]["success"] else 0)
    refused(client, "healing", {"method": "magic", "hp": 1, "max_hp": 6}, "magic_cannot_heal")


def test_rest_levels_level_ups_and_sigil_slots(client: httpx.Client) -> None:
    """The XP table: '12 4 Gain an additional Sigil slot'; 'excess sigils are overwritten'."""
    level = post(client, "levels", {"xp": 12})
    assert (level["level"], level["max_hp"], level["sigil_slots"]) == (4, 12, 2)
    up = post(client, "level-ups", {"level": 2, "choice": "combat_bonus", "combat_bonus": 1})
    assert (up["level"], up["combat_bonus"], up["max_hp"]) == (3, 2, 10)
    maxed = {"level": 1, "ability": "STR", "abilities": {"strength": 3}}
    refused(client, "level-ups", maxed, "ability_at_max")
    kept = post(client, "sigil-slots", {"borne": ["Old"], "new": ["New"], "level": 1})
    assert (kept["kept"], kept["lost"], kept["slots"]) == (["New"], ["Old"], 1)


def test_rest_turns_and_attacks_against_gear(client: httpx.Client) -> None:
    """'as long as they are not wearing heavy armor'; 'Ranged attacks are prohibited in close
    combat'; 'heavy armor provides +2 AC'."""
    assert post(client, "turns", {"actions": ["attack", "move"]})["actions_spent"] == 2
    refused(client, "turns", {"actions": ["maneuver"], "armor": "heavy"}, "maneuver_in_heavy_armor")
    ranged = {"actions": ["attack"], "ranged": True, "in_close_combat": True}
    refused(client, "turns", ranged, "ranged_in_close_combat")
    odds = post(client, "attacks/odds", {"gear": {"armor": "heavy", "shield": True}})
    assert (odds["ac"], odds["hit"]["fraction"]) == (9, "5/18")  # 2d6 >= 9
    attack = post(client, "attacks", {"gear": {"armor": "light"}, "seed": "g"})
    assert attack["ac"] == 7


def test_rest_refuses_booleans_and_strings_for_integers(client: httpx.Client) -> None:
    """'Ability scores may never rise higher than +3' — scores are integers, not true or "1"."""
    refused(client, "saves/odds", {"ability": True}, "invalid_request")
    refused(client, "saves/odds", {"ability": "1"}, "invalid_request")
    assert post(client, "saves", {"risk": "safe"})["success"] is True


def test_graphql_play_queries(client: httpx.Client) -> None:
    """Reactions, morale, initiative, healing, levels, sigils and turns over GraphQL."""
    data = gql(
        client,
        """{
          mazeRatsReaction(leaderWill: 0, seed: "r") {
            ... on MazeRatsReaction { cooperative cooperativeOdds { fraction } save { success } }
          }
          mazeRatsMorale(leaderDefeated: true, seed: "m") {
            ... on MazeRatsMorale { due morale { holds save { success } } }
          }
          mazeRatsInitiative(surprised: OPPONENTS) { ... on MazeRatsInitiative { first } }
          mazeRatsHeal(hp: 1, maxHp: 6, method: RATION, resting: true) {
            ... on MazeRatsHealing { healed hp usedToday }
          }
          mazeRatsLevel(xp: 20) { ... on MazeRatsStanding { level paths features } }
          mazeRatsLevelUp(level: 2, choice: ABILITY, ability: DEX) {
            ... on MazeRatsAdvancement { level abilities { dexterity } combatBonus }
          }
          mazeRatsInscribe(borne: ["A"], new: ["B", "C"], slots: 2) {
            ... on MazeRatsInscription { kept lost }
          }
          mazeRatsTurn(actions: [MANEUVER], armor: HEAVY) { ... on Problem { code } }
          gear: mazeRatsAttackOdds(gear: {armor: LIGHT, shield: true}) {
            ... on MazeRatsAttackOdds { hit { fraction float } }
          }
        }""",
    )
    reaction = data["mazeRatsReaction"]
    assert reaction["cooperative"] == reaction["save"]["success"]
    assert reaction["cooperativeOdds"]["fraction"] == "5/18"
    morale = data["mazeRatsMorale"]
    assert morale["due"] and morale["morale"]["holds"] == morale["morale"]["save"]["success"]
    assert data["mazeRatsInitiative"]["first"] == "PARTY"
    assert data["mazeRatsHeal"] == {"healed": 3, "hp": 4, "usedToday": ["RATION"]}
    assert data["mazeRatsLevel"]["level"] == 5 and data["mazeRatsLevel"]["paths"] == 2
    assert "ABILITY_SCORE__1_AND_SECOND_PATH" in data["mazeRatsLevel"]["features"]
    assert data["mazeRatsLevelUp"] == {
        "level": 3,
        "abilities": {"dexterity": 1},
        "combatBonus": 1,
    }
    assert data["mazeRatsInscribe"] == {"kept": ["B", "C"], "lost": ["A"]}
    assert data["mazeRatsTurn"] == {"code": "maneuver_in_heavy_armor"}
    assert data["gear"]["hit"]["fraction"] == "5/12"


def test_graphql_refusals_name_the_argument_and_cap_the_seed(client: httpx.Client) -> None:
    """Problems name the GraphQL argument in camelCase; seeds are capped at 256 characters."""
    data = gql(
        client,
        f"""{{
          bonus: mazeRatsOpposedSaveOdds(attackerBonus: 9) {{ ... on Problem {{ code field }} }}
          seed: mazeRatsSave(seed: "{"s" * 257}") {{ ... on Problem {{ code field }} }}
          heal: mazeRatsHeal(hp: 9, maxHp: 6) {{ ... on Problem {{ code }} }}
        }}""",
    )
    assert data["bonus"] == {"code": "invalid_request", "field": "attackerBonus"}
    assert data["seed"] == {"code": "invalid_request", "field": "seed"}
    assert data["heal"] == {"code": "hp_out_of_range"}


def test_rest_casting_loses_hp_and_a_discount_rolls_the_corruption_save(
    client: httpx.Client,
) -> None:
    """Spellcasting: "To cast a spell, lose HP equal to the cost of the effect you want to
    create"; "ask for a lower cost if they risk a corruption vs. WIL save"."""
    body = {"spell": {"base": 4, "corruption_discount": 1}, "hp": 6, "will": 1, "seed": "c"}
    cast = post(client, "spell-casts", body)
    assert (cast["price"]["cost"], cast["actions"], cast["hp"], cast["dead"]) == (3, 2, 3, False)
    assert cast["corrupted"] == (not cast["corruption_save"]["success"])
    assert cast["resist_odds"]["fraction"] == "5/12"
    assert cast == post(client, "spell-casts", body)
    dead = client.post("/v1/mazerats/spell-casts", json={"hp": 0})
    assert dead.status_code == 422 and dead.json()["code"] == "character_dead"


def test_rest_initiative_without_surprise_rolls_no_saves(client: httpx.Client) -> None:
    """Initiative: "Surprised characters that fail a WIL save skip their first turn." """
    plain = post(client, "initiative", {"seed": "i"})
    assert plain["surprised"] == [] and plain["by_surprise"] is False
    refused = client.post("/v1/mazerats/initiative", json={"surprised_wills": [1]})
    assert refused.status_code == 422 and refused.json()["code"] == "nobody_surprised"


def test_rest_character_creation_takes_the_players_choices(client: httpx.Client) -> None:
    """CHARACTER CREATION: "Roll a row or choose one", "Roll or choose a path", "Roll or
    choose six items"."""
    body = {"ability_row": 2, "path": "Roofrat", "items": ["Lantern"], "seed": "ch"}
    sheet = post(client, "characters", body)
    assert sheet["ability_row"] == 2 and sheet["paths"] == [{"dice": [], "entry": "Roofrat"}]
    assert sheet["items"][0] == {"dice": [], "entry": "Lantern"} and len(sheet["items"]) == 6
    bad = client.post("/v1/mazerats/characters", json={"path": "Wizard"})
    assert bad.status_code == 422 and bad.json()["code"] == "unknown_path"


def test_graphql_cast_initiative_and_chosen_character(client: httpx.Client) -> None:
    """The same three over GraphQL."""
    data = gql(
        client,
        """{
          mazeRatsCast(spell: {base: 2, extraTargets: 1}, hp: 5, seed: "c") {
            ... on MazeRatsSpellCast { hp dead actions corruptionSave { success } price { cost } }
          }
          mazeRatsInitiative(surprisedWills: [0]) { ... on Problem { code } }
          mazeRatsCharacter(abilityRow: 3, path: "inksworn", weapon: "Dagger", gearPackage: A) {
            ... on MazeRatsCharacter { paths { entry } abilityRow weapon { dice entry } }
          }
        }""",
    )
    assert data["mazeRatsCast"] == {
        "hp": 2,
        "dead": False,
        "actions": 2,
        "corruptionSave": None,
        "price": {"cost": 3},
    }
    assert data["mazeRatsInitiative"] == {"code": "nobody_surprised"}
    character = data["mazeRatsCharacter"]
    assert character["paths"] == [{"entry": "Inksworn"}]
    assert character["abilityRow"] == 3
    assert character["weapon"] == {"dice": [], "entry": "Dagger"}


def _graphql_input(value: Any, enums: frozenset[str]) -> Any:
    """A REST (snake_case) object as a GraphQL input: camelCase keys, enum names."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            head, *rest = key.split("_")
            name = head + "".join(part.title() for part in rest)
            enum = key in enums and isinstance(item, str)
            out[name] = item.upper() if enum else _graphql_input(item, enums)
        return out
    if isinstance(value, list):
        return [_graphql_input(v, enums) for v in value]
    return value


def test_a_character_casts_from_a_borne_sigil_on_both_transports(client: httpx.Client) -> None:
    """A sheet (typed `MazeRatsCharacterInput` over GraphQL, no JSON) casts from its sigil;
    the same request answers the same cast on both transports."""
    sheet = {**post(client, "characters", {"seed": "mage"}), "sigils": ["Fire"]}
    body = {"spell": {"base": 2}, "character": sheet, "sigil": "Fire", "seed": "k"}
    rest = post(client, "spell-casts", body)
    assert rest["hp"] == sheet["hp"] - 2 and rest["character"]["hp"] == rest["hp"]
    graphql_sheet = _graphql_input(sheet, frozenset({"armor", "weapon"}))
    response = client.post(
        "/graphql",
        json={
            "query": """query($c: MazeRatsCharacterInput!) {
              mazeRatsCast(spell: {base: 2}, character: $c, sigil: "Fire", seed: "k") {
                ... on MazeRatsSpellCast { hp character { hp sigils } }
              }
              unborne: mazeRatsCast(character: $c, sigil: "Ice") { ... on Problem { code } }
            }""",
            "variables": {"c": graphql_sheet},
        },
    )
    assert "errors" not in response.json(), response.text
    data = response.json()["data"]
    assert data["mazeRatsCast"] == {
        "hp": rest["hp"],
        "character": {"hp": rest["hp"], "sigils": ["Fire"]},
    }
    assert data["unborne"] == {"code": "sigil_not_borne"}
