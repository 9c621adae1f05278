"""The Maze Rats use cases (`/v1/mazerats/*`, `mazeRats*`): saves, combat, encounters,
healing, levels, sigils, spells, the character generator, the market and hirelings.

The rules are in `services.mazerats.usecases`; here the API picks a seed when the caller
gives none, records the dice the rules threw (shown with `render`) and shapes the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel

from api.rolls import RENDER_NOTE, recorded, rendered, rendering
from api.usecases import mazerats_results as out
from api.usecases.markers import GRAPHQL_NAMES
from api.usecases.table import Call, Service, UseCase, publishable
from services.chance import Chance
from services.dice import Rng, new_seed, seeded_rng
from services.mazerats import play_requests as play
from services.mazerats import requests as req
from services.mazerats import usecases as rules
from services.mazerats.abilities import Abilities, Ability
from services.mazerats.advancement import Choice, MazeRatsAdvancement, MazeRatsStanding, standing
from services.mazerats.casting import cast_spell
from services.mazerats.character import Character, GearPackage, MazeRatsCharacter, Pick
from services.mazerats.combat import attack_odds
from services.mazerats.encounters import Side
from services.mazerats.gear import Armor, Gear, Weapon
from services.mazerats.healing import HealMethod
from services.mazerats.levels import Feature
from services.mazerats.magic import Part, Realm
from services.mazerats.market import HIRELINGS, MARKET
from services.mazerats.opposed import MazeRatsOpposedOdds, TieRule, opposed_odds
from services.mazerats.saves import Risk, save_bonus, save_odds
from services.mazerats.sigils import Overwrite
from services.mazerats.spells import MazeRatsSpellCost, Reach, SpellRequest, spell_cost
from services.mazerats.turns import Action

GRAPHQL_NAMES.update(
    {
        Character: "MazeRatsCharacter",
        Abilities: "MazeRatsAbilities",
        Pick: "MazeRatsPick",
        Gear: "MazeRatsGear",
        req.DefenderGear: "MazeRatsDefenderGear",
        SpellRequest: "MazeRatsSpell",
        GearPackage: "MazeRatsGearPackage",
        Ability: "MazeRatsAbility",
        Action: "MazeRatsAction",
        Armor: "MazeRatsArmor",
        Choice: "MazeRatsLevelChoice",
        Feature: "MazeRatsFeature",
        HealMethod: "MazeRatsHealMethod",
        Overwrite: "MazeRatsOverwrite",
        Part: "MazeRatsSigilPart",
        Reach: "MazeRatsReach",
        Realm: "MazeRatsRealm",
        Risk: "MazeRatsRisk",
        Side: "MazeRatsSide",
        TieRule: "MazeRatsTieRule",
        Weapon: "MazeRatsWeapon",
    }
)


def save_chance(request: req.SaveOddsRequest, call: Call) -> out.MazeRatsSaveOdds:
    """The save bonus and its exact chance."""
    bonus = save_bonus(request.ability, request.path_covers)
    odds = Chance.of(save_odds(request.ability, request.path_covers))
    return out.MazeRatsSaveOdds.model_validate({"bonus": bonus, "success": odds})


def opposed_chance(request: req.OpposedOddsRequest, call: Call) -> MazeRatsOpposedOdds:
    """Each side's exact chance to win, and a tie's."""
    return opposed_odds(request.attacker_bonus, request.defender_bonus, request.ties)


def attack_chance(request: req.AttackOddsRequest, call: Call) -> out.MazeRatsAttackOdds:
    """The exact chance to hit, mean damage and damage distribution."""
    odds = attack_odds(request.combat_bonus, request.armor_class, request.heavy_weapon)
    return out.MazeRatsAttackOdds.model_validate(
        {
            "ac": request.armor_class,
            "hit": Chance.of(odds.hit),
            "mean_damage": Chance.of(odds.mean_damage),
            "damage": [{"damage": d, **Chance.of(p).model_dump()} for d, p in odds.damage.items()],
        }
    )


def level_up(request: play.LevelUpRequest, call: Call) -> MazeRatsAdvancement:
    """The next level, its feature applied (every score answered, defaults too)."""
    return MazeRatsAdvancement.model_validate(rules.advance(request).model_dump())


def character(request: req.CharacterRequest, call: Call) -> MazeRatsCharacter:
    """A generated sheet, reproducible from its seed."""
    seed = request.seed or new_seed()
    return rules.create_character(request, seeded_rng(seed), seed)


def sigils(request: req.SigilRequest, call: Call) -> out.MazeRatsSigils:
    """The sigils a shop offers, reproducible from the seed."""
    seed = request.seed or new_seed()
    return out.MazeRatsSigils(seed=seed, sigils=rules.sigils(request, seeded_rng(seed)))


# The tables leave their defaults unset, and REST answers only the fields set: each row
# is validated again from its full dump, so every key is set and answered.
def market(request: None, call: Call) -> out.MazeRatsMarket:
    """The market's wares and prices."""
    return out.MazeRatsMarket.model_validate({"wares": [w.model_dump() for w in MARKET]})


def hirelings(request: None, call: Call) -> out.MazeRatsHirelings:
    """The hirelings for hire."""
    rows = [h.model_dump() for h in HIRELINGS]
    return out.MazeRatsHirelings.model_validate({"hirelings": rows})


SEEDED = "The response carries the seed; sending it back replays the roll."
RENDERED = SEEDED + RENDER_NOTE
GETS = (401, 429)


def _row(
    name: str,
    path: str,
    field: str,
    request: type[BaseModel] | None,
    result: type[BaseModel],
    service: Service,
    summary: str,
    **more: Any,
) -> UseCase:
    """A Maze Rats row: a query under /mazerats/ and `mazeRats<Field>`."""
    method: Literal["GET", "POST"] = "GET" if request is None else "POST"
    return UseCase(name, method, f"/mazerats/{path}", "query", f"maze_rats_{field}", request,
                   result, service, summary, "mazerats", **more)  # fmt: skip


def _rolls(
    name: str,
    path: str,
    field: str,
    request: type[BaseModel],
    result: type[BaseModel],
    rule: Callable[[Any, Rng], BaseModel],
    summary: str,
) -> UseCase:
    """The row of a rule that rolls: `rule` under the request's seed (or a fresh one),
    answered as `result` with the seed and, when the request names a `render`, the dice
    it threw (`dice_rolls`). Its body is `<Rule>Body`: the request with `render`."""

    def service(request: Any, call: Call) -> BaseModel:
        seed = request.seed or new_seed()
        outcome, rolls = recorded(rule, request, seeded_rng(seed))
        data = {**dict(outcome), "seed": seed}
        if request.render is not None:
            data["dice_rolls"] = rendered(rolls, request.render)
        return result.model_validate(data)

    rule_name = request.__name__.removesuffix("Request")
    doc = f"{rule_name} with `render` (the dice, per die and for VTTs)."
    body = rendering(f"{rule_name}Body", request, doc)
    return _row(name, path, field, body, result, service, summary, description=RENDERED)


ROWS: tuple[UseCase, ...] = publishable(
    _rolls("ratsSave", "saves", "save", req.SaveRequest, out.MazeRatsSave, rules.save,
           "Roll a save"),
    _row("ratsSaveOdds", "saves/odds", "save_odds", req.SaveOddsRequest, out.MazeRatsSaveOdds,
         save_chance, "Exact chance a save succeeds"),
    _rolls("ratsOpposed", "opposed-saves", "opposed_save", req.OpposedSaveRequest,
           out.MazeRatsOpposedSave, rules.opposed, "Roll an opposed save"),
    _row("ratsOpposedOdds", "opposed-saves/odds", "opposed_save_odds", req.OpposedOddsRequest,
         MazeRatsOpposedOdds, opposed_chance, "Each side's exact chance to win"),
    _rolls("ratsAttack", "attacks", "attack", req.AttackRequest, out.MazeRatsAttack,
           rules.attack, "Roll an attack and its damage"),
    _row("ratsAttackOdds", "attacks/odds", "attack_odds", req.AttackOddsRequest,
         out.MazeRatsAttackOdds, attack_chance, "Chance to hit and damage distribution"),
    _rolls("ratsReaction", "reactions", "reaction", play.ReactionRequest, out.MazeRatsReaction,
           rules.reaction, "Roll a reaction"),
    _rolls("ratsMorale", "morale", "morale", play.MoraleRequest, out.MazeRatsMorale,
           rules.morale, "Roll morale when due"),
    _rolls("ratsInitiative", "initiative", "initiative", play.InitiativeRequest,
           out.MazeRatsInitiative, rules.initiative, "Roll initiative"),
    _rolls("ratsHealing", "healing", "heal", play.HealRequest, out.MazeRatsHealing,
           rules.healing, "Heal by ration or bandage"),
    _row("ratsLevel", "levels", "level", play.StandingRequest, MazeRatsStanding,
         lambda request, call: standing(request.xp), "Level and features for some XP"),
    _row("ratsLevelUp", "level-ups", "level_up", play.LevelUpRequest, MazeRatsAdvancement,
         level_up, "Gain the next level"),
    _row("ratsInscribe", "sigil-slots", "inscribe", play.InscribeRequest,
         rules.MazeRatsInscription, lambda request, call: rules.inscription(request),
         "Bear new sigils"),
    _row("ratsTurn", "turns", "turn", play.TurnRequest, rules.MazeRatsTurn,
         lambda request, call: rules.turn(request), "Check a turn"),
    _row("ratsCharacter", "characters", "character", req.CharacterRequest,
         MazeRatsCharacter, character, "Generate a character", description=SEEDED),
    _row("ratsSigils", "sigils", "sigils", req.SigilRequest, out.MazeRatsSigils, sigils,
         "Generate sigils", description=SEEDED),
    _row("ratsSpellCost", "spell-costs", "spell_cost", SpellRequest, MazeRatsSpellCost,
         lambda request, call: spell_cost(request), "HP cost of a spell"),
    _rolls("ratsSpellCast", "spell-casts", "cast", play.CastRequest, out.MazeRatsSpellCast,
           cast_spell, "Cast a spell: HP lost, corruption save"),
    _row("ratsMarket", "market", "market", None, out.MazeRatsMarket, market,
         "The market's wares", errors=GETS),
    _row("ratsHirelings", "hirelings", "hirelings", None, out.MazeRatsHirelings, hirelings,
         "Hirelings for hire", errors=GETS),
)  # fmt: skip
