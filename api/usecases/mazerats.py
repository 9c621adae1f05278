"""The Maze Rats use cases (`/v1/mazerats/*`, `mazeRats*`): saves, combat, encounters,
healing, levels, sigils, spells, the character generator, the market and hirelings.

The rules are in `services.mazerats.usecases`; here the API picks a seed when the caller
gives none, records the dice the rules threw (shown with `render`) and shapes the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, Protocol, TypeVar

from pydantic import BaseModel

from api.rolls import recorded, rendered, rendering
from api.usecases import mazerats_results as out
from api.usecases.markers import GRAPHQL_NAMES
from api.usecases.table import Call, Result, Service, UseCase, publishable
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
from services.mazerats.opposed import TieRule, opposed_odds
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


class Seeded(Protocol):
    """A rolling request: its seed (None: pick one)."""

    @property
    def seed(self) -> str | None: ...


def _body(model: type[BaseModel]) -> type[BaseModel]:
    """A rolling rule's REST body and GraphQL arguments: `model` with `render`."""
    rule = model.__name__.removesuffix("Request")
    doc = f"{rule} with `render` (the dice, per die and for VTTs)."
    return rendering(f"{rule}Body", model, doc)


B = TypeVar("B", bound=Seeded)
R = TypeVar("R", bound=Result)
D = TypeVar("D", bound=BaseModel)


def _rolled(
    result: type[R],
    rule: Callable[[B, Rng], D],
    request: B,
    extra: Callable[[D], dict[str, Any]] = lambda _: {},
) -> R:
    """`rule` rolled under the request's seed (or a fresh one), as `result`."""
    seed = request.seed or new_seed()
    outcome, rolls = recorded(rule, request, seeded_rng(seed))
    data = {**dict(outcome), **extra(outcome), "seed": seed}
    render = getattr(request, "render", None)  # the body's (`_body`)
    if render is not None:
        data["dice_rolls"] = rendered(rolls, render)
    return result.model_validate(data)


def save(request: req.SaveRequest, call: Call) -> out.MazeRatsSave:
    """A rolled save."""
    return _rolled(out.MazeRatsSave, rules.save, request)


def save_chance(request: req.SaveOddsRequest, call: Call) -> out.MazeRatsSaveOdds:
    """The save bonus and its exact chance."""
    bonus = save_bonus(request.ability, request.path_covers)
    odds = Chance.of(save_odds(request.ability, request.path_covers))
    return out.MazeRatsSaveOdds.model_validate({"bonus": bonus, "success": odds})


def opposed(request: req.OpposedSaveRequest, call: Call) -> out.MazeRatsOpposedSave:
    """A rolled opposed save."""
    return _rolled(out.MazeRatsOpposedSave, rules.opposed, request)


def opposed_chance(request: req.OpposedOddsRequest, call: Call) -> out.MazeRatsOpposedOdds:
    """Each side's exact chance to win, and a tie's."""
    odds = opposed_odds(request.attacker_bonus, request.defender_bonus, request.ties)
    data = {k: Chance.of(getattr(odds, k)) for k in ("attacker", "defender", "tie")}
    return out.MazeRatsOpposedOdds.model_validate(data)


def attack(request: req.AttackRequest, call: Call) -> out.MazeRatsAttack:
    """A rolled attack and its damage."""
    return _rolled(out.MazeRatsAttack, rules.attack, request)


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


def reaction(request: play.ReactionRequest, call: Call) -> out.MazeRatsReaction:
    """A rolled reaction and the exact chance it is cooperative."""
    odds = Chance.of(save_odds(request.leader_will, request.path_covers))
    return _rolled(
        out.MazeRatsReaction, rules.reaction, request, lambda _: {"cooperative_odds": odds}
    )


def morale(request: play.MoraleRequest, call: Call) -> out.MazeRatsMorale:
    """Whether morale is due, the check if due (or forced), the chance it holds."""
    odds = Chance.of(save_odds(request.will))
    return _rolled(out.MazeRatsMorale, rules.morale, request, lambda _: {"holds_odds": odds})


def initiative(request: play.InitiativeRequest, call: Call) -> out.MazeRatsInitiative:
    """Who acts first and the surprised characters' saves."""
    return _rolled(out.MazeRatsInitiative, rules.initiative, request)


def healing(request: play.HealRequest, call: Call) -> out.MazeRatsHealing:
    """A healing attempt and the day's uses."""
    return _rolled(out.MazeRatsHealing, rules.healing, request)


def level(request: play.StandingRequest, call: Call) -> MazeRatsStanding:
    """The standing for some XP."""
    return standing(request.xp)


def level_up(request: play.LevelUpRequest, call: Call) -> MazeRatsAdvancement:
    """The next level, its feature applied (every score answered, defaults too)."""
    return MazeRatsAdvancement.model_validate(rules.advance(request).model_dump())


def inscription(request: play.InscribeRequest, call: Call) -> out.MazeRatsInscription:
    """The sigils kept and lost, and the slots they fill."""
    kept = rules.inscription(request)
    return out.MazeRatsInscription(**dict(kept), slots=rules.slots_of(request))


def turn(request: play.TurnRequest, call: Call) -> out.MazeRatsTurn:
    """An allowed turn and the actions it spends."""
    return out.MazeRatsTurn(allowed=True, actions_spent=rules.turn(request))


def character(request: req.CharacterRequest, call: Call) -> MazeRatsCharacter:
    """A generated sheet, reproducible from its seed."""
    seed = request.seed or new_seed()
    return rules.create_character(request, seeded_rng(seed), seed)


def sigils(request: req.SigilRequest, call: Call) -> out.MazeRatsSigils:
    """The sigils a shop offers, reproducible from the seed."""
    seed = request.seed or new_seed()
    return out.MazeRatsSigils(seed=seed, sigils=rules.sigils(request, seeded_rng(seed)))


def spell(request: SpellRequest, call: Call) -> MazeRatsSpellCost:
    """A spell's HP cost and tier."""
    return spell_cost(request)


def spell_cast(request: play.CastRequest, call: Call) -> out.MazeRatsSpellCast:
    """A cast spell: HP lost, death, the corruption save and its exact chance."""
    return _rolled(out.MazeRatsSpellCast, cast_spell, request)


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
RENDERED = SEEDED + (
    " With `render` (`[]`, or renderings such as `foundry`), `dice_rolls` lists every roll "
    "the rules made, each with its dice, like `/v1/dice/roll`."
)
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


ROWS: tuple[UseCase, ...] = publishable(
    _row("ratsSave", "saves", "save", _body(req.SaveRequest), out.MazeRatsSave, save, "Roll a save",
         description=RENDERED),
    _row("ratsSaveOdds", "saves/odds", "save_odds", req.SaveOddsRequest, out.MazeRatsSaveOdds,
         save_chance, "Exact chance a save succeeds"),
    _row("ratsOpposed", "opposed-saves", "opposed_save", _body(req.OpposedSaveRequest),
         out.MazeRatsOpposedSave, opposed, "Roll an opposed save", description=RENDERED),
    _row("ratsOpposedOdds", "opposed-saves/odds", "opposed_save_odds", req.OpposedOddsRequest,
         out.MazeRatsOpposedOdds, opposed_chance, "Each side's exact chance to win"),
    _row("ratsAttack", "attacks", "attack", _body(req.AttackRequest), out.MazeRatsAttack, attack,
         "Roll an attack and its damage", description=RENDERED),
    _row("ratsAttackOdds", "attacks/odds", "attack_odds", req.AttackOddsRequest,
         out.MazeRatsAttackOdds, attack_chance, "Chance to hit and damage distribution"),
    _row("ratsReaction", "reactions", "reaction", _body(play.ReactionRequest),
         out.MazeRatsReaction, reaction, "Roll a reaction", description=RENDERED),
    _row("ratsMorale", "morale", "morale", _body(play.MoraleRequest), out.MazeRatsMorale, morale,
         "Roll morale when due", description=RENDERED),
    _row("ratsInitiative", "initiative", "initiative", _body(play.InitiativeRequest),
         out.MazeRatsInitiative, initiative, "Roll initiative", description=RENDERED),
    _row("ratsHealing", "healing", "heal", _body(play.HealRequest), out.MazeRatsHealing, healing,
         "Heal by ration or bandage", description=RENDERED),
    _row("ratsLevel", "levels", "level", play.StandingRequest, MazeRatsStanding, level,
         "Level and features for some XP"),
    _row("ratsLevelUp", "level-ups", "level_up", play.LevelUpRequest, MazeRatsAdvancement,
         level_up, "Gain the next level"),
    _row("ratsInscribe", "sigil-slots", "inscribe", play.InscribeRequest,
         out.MazeRatsInscription, inscription, "Bear new sigils"),
    _row("ratsTurn", "turns", "turn", play.TurnRequest, out.MazeRatsTurn, turn, "Check a turn"),
    _row("ratsCharacter", "characters", "character", req.CharacterRequest,
         MazeRatsCharacter, character, "Generate a character", description=SEEDED),
    _row("ratsSigils", "sigils", "sigils", req.SigilRequest, out.MazeRatsSigils, sigils,
         "Generate sigils", description=SEEDED),
    _row("ratsSpellCost", "spell-costs", "spell_cost", SpellRequest, MazeRatsSpellCost,
         spell, "HP cost of a spell"),
    _row("ratsSpellCast", "spell-casts", "cast", _body(play.CastRequest),
         out.MazeRatsSpellCast, spell_cast, "Cast a spell: HP lost, corruption save",
         description=RENDERED),
    _row("ratsMarket", "market", "market", None, out.MazeRatsMarket, market,
         "The market's wares", errors=GETS),
    _row("ratsHirelings", "hirelings", "hirelings", None, out.MazeRatsHirelings, hirelings,
         "Hirelings for hire", errors=GETS),
)  # fmt: skip
