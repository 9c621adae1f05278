"""REST: the Maze Rats checks, odds and generators under /v1/mazerats."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from api.bodies import read_model
from services.dice import new_seed, seeded_rng
from services.mazerats.combat import attack_odds, roll_attack
from services.mazerats.generator import generate_character
from services.mazerats.magic import generate_sigils
from services.mazerats.market import HIRELINGS, MARKET
from services.mazerats.opposed import opposed_odds, roll_opposed
from services.mazerats.report import attack_odds_dict, chance, opposed_odds_dict
from services.mazerats.requests import (
    AttackOddsRequest,
    AttackRequest,
    CharacterRequest,
    OpposedOddsRequest,
    OpposedSaveRequest,
    SaveOddsRequest,
    SaveRequest,
    SigilRequest,
)
from services.mazerats.saves import roll_save, save_odds
from services.mazerats.spells import SpellRequest, spell_cost


def _json(data: dict[str, Any]) -> JSONResponse:
    return JSONResponse(data)


async def save(request: Request) -> JSONResponse:
    """POST /v1/mazerats/saves: roll a save; the response carries the seed to replay it."""
    body = await read_model(request, SaveRequest)
    seed = body.seed or new_seed()
    result = roll_save(seeded_rng(seed), body.ability, body.path_covers, body.risk)
    return _json({**result.model_dump(mode="json"), "seed": seed})


async def save_chance(request: Request) -> JSONResponse:
    """POST /v1/mazerats/saves/odds: the exact chance a save succeeds."""
    body = await read_model(request, SaveOddsRequest)
    return _json({"success": chance(save_odds(body.ability, body.path_covers))})


async def opposed(request: Request) -> JSONResponse:
    """POST /v1/mazerats/opposed-saves: roll an opposed save."""
    body = await read_model(request, OpposedSaveRequest)
    seed = body.seed or new_seed()
    result = roll_opposed(seeded_rng(seed), body.attacker_bonus, body.defender_bonus, body.ties)
    return _json({**result.model_dump(mode="json"), "seed": seed})


async def opposed_chance(request: Request) -> JSONResponse:
    """POST /v1/mazerats/opposed-saves/odds: each side's exact chance to win."""
    body = await read_model(request, OpposedOddsRequest)
    odds = opposed_odds(body.attacker_bonus, body.defender_bonus, body.ties)
    return _json(opposed_odds_dict(odds))


async def attack(request: Request) -> JSONResponse:
    """POST /v1/mazerats/attacks: roll an attack against AC and its damage."""
    body = await read_model(request, AttackRequest)
    seed = body.seed or new_seed()
    result = roll_attack(
        seeded_rng(seed),
        body.combat_bonus,
        body.ac,
        body.heavy_weapon,
        body.ranged,
        body.in_close_combat,
    )
    return _json({**result.model_dump(mode="json"), "seed": seed})


async def attack_chance(request: Request) -> JSONResponse:
    """POST /v1/mazerats/attacks/odds: the exact chance to hit and damage distribution."""
    body = await read_model(request, AttackOddsRequest)
    return _json(attack_odds_dict(attack_odds(body.combat_bonus, body.ac, body.heavy_weapon)))


async def character(request: Request) -> JSONResponse:
    """POST /v1/mazerats/characters: a generated character, reproducible from its seed."""
    body = await read_model(request, CharacterRequest)
    seed = body.seed or new_seed()
    sheet = generate_character(
        seeded_rng(seed),
        seed=seed,
        name=body.name,
        gear_package=body.gear_package,
        unique_items=body.unique_items,
    )
    return _json(sheet.model_dump(mode="json"))


async def sigils(request: Request) -> JSONResponse:
    """POST /v1/mazerats/sigils: the sigils a shop offers, reproducible from the seed."""
    body = await read_model(request, SigilRequest)
    seed = body.seed or new_seed()
    found = generate_sigils(seeded_rng(seed), body.count, body.realm, body.part, body.mix_realms)
    return _json({"seed": seed, "sigils": [s.model_dump(mode="json") for s in found]})


async def spell(request: Request) -> JSONResponse:
    """POST /v1/mazerats/spell-costs: the HP cost of a spell and its tier."""
    body = await read_model(request, SpellRequest)
    return _json(spell_cost(body).model_dump(mode="json"))


async def market(request: Request) -> JSONResponse:
    """GET /v1/mazerats/market: the market's wares and prices."""
    return _json({"wares": [w.model_dump(mode="json") for w in MARKET]})


async def hirelings(request: Request) -> JSONResponse:
    """GET /v1/mazerats/hirelings: the hirelings for hire."""
    return _json({"hirelings": [h.model_dump(mode="json") for h in HIRELINGS]})


routes: list[BaseRoute] = [
    Route("/mazerats/saves", save, methods=["POST"]),
    Route("/mazerats/saves/odds", save_chance, methods=["POST"]),
    Route("/mazerats/opposed-saves", opposed, methods=["POST"]),
    Route("/mazerats/opposed-saves/odds", opposed_chance, methods=["POST"]),
    Route("/mazerats/attacks", attack, methods=["POST"]),
    Route("/mazerats/attacks/odds", attack_chance, methods=["POST"]),
    Route("/mazerats/characters", character, methods=["POST"]),
    Route("/mazerats/sigils", sigils, methods=["POST"]),
    Route("/mazerats/spell-costs", spell, methods=["POST"]),
    Route("/mazerats/market", market, methods=["GET"]),
    Route("/mazerats/hirelings", hirelings, methods=["GET"]),
]
