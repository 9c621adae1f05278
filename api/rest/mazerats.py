"""REST: the Maze Rats checks, odds and generators under /v1/mazerats."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from api.bodies import read_model
from api.rendering import chance
from api.rolls import Rendered, recorded, rolls_json
from services.dice import new_seed, seeded_rng
from services.mazerats import usecases
from services.mazerats.advancement import level_up, standing
from services.mazerats.casting import cast_spell
from services.mazerats.combat import AttackOdds, attack_odds, check_attack_allowed, roll_attack
from services.mazerats.encounters import morale_check_due, roll_morale, roll_reaction
from services.mazerats.healing import heal
from services.mazerats.levels import sigil_slots
from services.mazerats.magic import generate_sigils
from services.mazerats.market import HIRELINGS, MARKET
from services.mazerats.opposed import OpposedOdds, opposed_odds, roll_opposed
from services.mazerats.play_requests import (
    CastRequest,
    HealRequest,
    InitiativeRequest,
    InscribeRequest,
    LevelUpRequest,
    MoraleRequest,
    ReactionRequest,
    StandingRequest,
    TurnRequest,
)
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
from services.mazerats.sigils import inscribe
from services.mazerats.spells import SpellRequest, spell_cost
from services.mazerats.turns import Action, check_turn


class SaveBody(SaveRequest, Rendered):
    """Save with `render` (the dice, per die and for VTTs)."""


class OpposedSaveBody(OpposedSaveRequest, Rendered):
    """OpposedSave with `render` (the dice, per die and for VTTs)."""


class AttackBody(AttackRequest, Rendered):
    """Attack with `render` (the dice, per die and for VTTs)."""


class CastBody(CastRequest, Rendered):
    """Cast with `render` (the dice, per die and for VTTs)."""


class ReactionBody(ReactionRequest, Rendered):
    """Reaction with `render` (the dice, per die and for VTTs)."""


class MoraleBody(MoraleRequest, Rendered):
    """Morale with `render` (the dice, per die and for VTTs)."""


class InitiativeBody(InitiativeRequest, Rendered):
    """Initiative with `render` (the dice, per die and for VTTs)."""


class HealBody(HealRequest, Rendered):
    """Heal with `render` (the dice, per die and for VTTs)."""


def _json(data: dict[str, Any]) -> JSONResponse:
    return JSONResponse(data)


def _dump(model: BaseModel, **extra: Any) -> JSONResponse:
    return JSONResponse({**model.model_dump(mode="json"), **extra})


def attack_odds_dict(odds: AttackOdds) -> dict[str, Any]:
    """The chance to hit, the mean damage and the damage distribution, exact."""
    return {
        "hit": chance(odds.hit),
        "mean_damage": chance(odds.mean_damage),
        "damage": [{"damage": d, **chance(p)} for d, p in odds.damage.items()],
    }


def opposed_odds_dict(odds: OpposedOdds) -> dict[str, Any]:
    """Each side's chance to win and the chance of a tie on one exchange."""
    return {k: chance(getattr(odds, k)) for k in ("attacker", "defender", "tie")}


async def save(request: Request) -> JSONResponse:
    """POST /v1/mazerats/saves: roll a save; the response carries the seed to replay it."""
    body = await read_model(request, SaveBody)
    seed = body.seed or new_seed()
    result, rolls = recorded(roll_save, seeded_rng(seed), body.ability, body.path_covers, body.risk)
    return _dump(result, seed=seed, **rolls_json(rolls, body.render))


async def save_chance(request: Request) -> JSONResponse:
    """POST /v1/mazerats/saves/odds: the exact chance a save succeeds."""
    body = await read_model(request, SaveOddsRequest)
    return _json({"success": chance(save_odds(body.ability, body.path_covers))})


async def opposed(request: Request) -> JSONResponse:
    """POST /v1/mazerats/opposed-saves: roll an opposed save."""
    body = await read_model(request, OpposedSaveBody)
    seed = body.seed or new_seed()
    args = (body.attacker_bonus, body.defender_bonus, body.ties)
    result, rolls = recorded(roll_opposed, seeded_rng(seed), *args)
    return _dump(result, seed=seed, **rolls_json(rolls, body.render))


async def opposed_chance(request: Request) -> JSONResponse:
    """POST /v1/mazerats/opposed-saves/odds: each side's exact chance to win."""
    body = await read_model(request, OpposedOddsRequest)
    odds = opposed_odds(body.attacker_bonus, body.defender_bonus, body.ties)
    return _json(opposed_odds_dict(odds))


async def attack(request: Request) -> JSONResponse:
    """POST /v1/mazerats/attacks: roll an attack against AC and its damage."""
    body = await read_model(request, AttackBody)
    seed = body.seed or new_seed()
    result, rolls = recorded(
        roll_attack,
        seeded_rng(seed),
        body.combat_bonus,
        body.armor_class,
        body.heavy_weapon,
        body.ranged,
        body.in_close_combat,
    )
    return _dump(result, seed=seed, **rolls_json(rolls, body.render))


async def attack_chance(request: Request) -> JSONResponse:
    """POST /v1/mazerats/attacks/odds: the exact chance to hit and damage distribution."""
    body = await read_model(request, AttackOddsRequest)
    odds = attack_odds(body.combat_bonus, body.armor_class, body.heavy_weapon)
    return _json({"ac": body.armor_class, **attack_odds_dict(odds)})


async def character(request: Request) -> JSONResponse:
    """POST /v1/mazerats/characters: a generated character, reproducible from its seed."""
    body = await read_model(request, CharacterRequest)
    seed = body.seed or new_seed()
    return _dump(usecases.create_character(body, seeded_rng(seed), seed))


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


async def spell_cast(request: Request) -> JSONResponse:
    """POST /v1/mazerats/spell-casts: cast a spell; HP lost, death, corruption save."""
    body = await read_model(request, CastBody)
    seed = body.seed or new_seed()
    cast, rolls = recorded(cast_spell, body, seeded_rng(seed))
    odds = None if cast.resist_odds is None else chance(cast.resist_odds)
    return _dump(cast, resist_odds=odds, seed=seed, **rolls_json(rolls, body.render))


async def market(request: Request) -> JSONResponse:
    """GET /v1/mazerats/market: the market's wares and prices."""
    return _json({"wares": [w.model_dump(mode="json") for w in MARKET]})


async def hirelings(request: Request) -> JSONResponse:
    """GET /v1/mazerats/hirelings: the hirelings for hire."""
    return _json({"hirelings": [h.model_dump(mode="json") for h in HIRELINGS]})


async def reaction(request: Request) -> JSONResponse:
    """POST /v1/mazerats/reactions: the leader's WIL save; success means cooperative."""
    body = await read_model(request, ReactionBody)
    seed = body.seed or new_seed()
    result, rolls = recorded(roll_reaction, seeded_rng(seed), body.leader_will, body.path_covers)
    odds = chance(save_odds(body.leader_will, body.path_covers))
    return _dump(result, cooperative_odds=odds, seed=seed, **rolls_json(rolls, body.render))


async def morale(request: Request) -> JSONResponse:
    """POST /v1/mazerats/morale: whether a check is due and, if due (or forced), the save."""
    body = await read_model(request, MoraleBody)
    seed = body.seed or new_seed()
    due = morale_check_due(
        leader_defeated=body.leader_defeated,
        group_size=body.group_size,
        defeated=body.defeated,
        max_hp=body.max_hp,
        hp=body.hp,
        unexpected_danger=body.unexpected_danger,
    )
    rolled, rolls = (
        recorded(roll_morale, seeded_rng(seed), body.will) if due or body.force else (None, ())
    )
    return _json(
        {
            "due": due,
            "morale": rolled.model_dump(mode="json") if rolled else None,
            "holds_odds": chance(save_odds(body.will)),
            "seed": seed,
            **rolls_json(rolls, body.render),
        }
    )


async def initiative(request: Request) -> JSONResponse:
    """POST /v1/mazerats/initiative: the side acting first; surprised characters' saves."""
    body = await read_model(request, InitiativeBody)
    seed = body.seed or new_seed()
    result, rolls = recorded(usecases.initiative, body, seeded_rng(seed))
    return _dump(result, seed=seed, **rolls_json(rolls, body.render))


async def healing(request: Request) -> JSONResponse:
    """POST /v1/mazerats/healing: heal by ration (at rest) or bandage (WIL save)."""
    body = await read_model(request, HealBody)
    seed = body.seed or new_seed()
    result, rolls = recorded(
        heal,
        seeded_rng(seed),
        body.method,
        body.hp,
        body.max_hp,
        resting=body.resting,
        will=body.will,
        path_covers=body.path_covers,
        used_today=frozenset(body.used_today),
    )
    used = sorted(result.used_today)
    return _dump(result, used_today=used, seed=seed, **rolls_json(rolls, body.render))


async def level(request: Request) -> JSONResponse:
    """POST /v1/mazerats/levels: the level, features, max HP and sigil slots for some XP."""
    body = await read_model(request, StandingRequest)
    return _dump(standing(body.xp))


async def level_up_(request: Request) -> JSONResponse:
    """POST /v1/mazerats/level-ups: gain the next level and apply its feature as chosen."""
    body = await read_model(request, LevelUpRequest)
    up = level_up(
        body.level, body.abilities, body.combat_bonus, choice=body.choice, ability=body.ability
    )
    return _dump(up)


async def inscription(request: Request) -> JSONResponse:
    """POST /v1/mazerats/sigil-slots: bear new sigils; the excess is overwritten and lost."""
    body = await read_model(request, InscribeRequest)
    slots = body.slots if body.slots is not None else sigil_slots(body.level or 1)
    return _dump(inscribe(body.borne, body.new, slots, body.overwrite), slots=slots)


async def turn(request: Request) -> JSONResponse:
    """POST /v1/mazerats/turns: check a turn (two actions, no maneuver in heavy armor)."""
    body = await read_model(request, TurnRequest)
    if Action.ATTACK in body.actions:
        check_attack_allowed(body.ranged, body.in_close_combat)
    return _json({"allowed": True, "actions_spent": check_turn(body.actions, body.armor)})


routes: list[BaseRoute] = [
    Route("/mazerats/saves", save, methods=["POST"]),
    Route("/mazerats/saves/odds", save_chance, methods=["POST"]),
    Route("/mazerats/opposed-saves", opposed, methods=["POST"]),
    Route("/mazerats/opposed-saves/odds", opposed_chance, methods=["POST"]),
    Route("/mazerats/attacks", attack, methods=["POST"]),
    Route("/mazerats/attacks/odds", attack_chance, methods=["POST"]),
    Route("/mazerats/reactions", reaction, methods=["POST"]),
    Route("/mazerats/morale", morale, methods=["POST"]),
    Route("/mazerats/initiative", initiative, methods=["POST"]),
    Route("/mazerats/healing", healing, methods=["POST"]),
    Route("/mazerats/levels", level, methods=["POST"]),
    Route("/mazerats/level-ups", level_up_, methods=["POST"]),
    Route("/mazerats/sigil-slots", inscription, methods=["POST"]),
    Route("/mazerats/turns", turn, methods=["POST"]),
    Route("/mazerats/characters", character, methods=["POST"]),
    Route("/mazerats/sigils", sigils, methods=["POST"]),
    Route("/mazerats/spell-costs", spell, methods=["POST"]),
    Route("/mazerats/spell-casts", spell_cast, methods=["POST"]),
    Route("/mazerats/market", market, methods=["GET"]),
    Route("/mazerats/hirelings", hirelings, methods=["GET"]),
]
