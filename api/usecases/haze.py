"""The Haze use cases (services/haze/usecases.py): actions, odds, effect dice, re-actions,
initiative, ability checks, spells and prayers, complex actions and exhaustion.

The API supplies what the pure services may not take for themselves: a fresh seed when
the caller gives none, and the dice a roll threw, shown like `/v1/dice/roll` when the
request asks with `render`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from api.rolls import DiceRolls, Rendered, recorded, rendered
from api.usecases import dice_results as out
from api.usecases.dice import report
from api.usecases.table import Call, Service, UseCase, publishable
from services.dice import new_seed
from services.haze import checks, effect_distribution, spells
from services.haze import requests as rq
from services.haze import usecases as haze


class HazeActionBody(rq.HazeActionRequest, Rendered):
    """Roll an action; without a seed the service picks one and returns it."""


class HazeEffectBody(rq.EffectRequest, Rendered):
    """Roll effect dice: `dice`, or from ability + skill (+ modifiers, unskilled)."""


class HazeReactionBody(rq.ReactionRollRequest, Rendered):
    """Roll an attack and the defender's re-action (or none)."""


class HazeInitiativeBody(rq.InitiativeRequest, Rendered):
    """Everyone rolls wits + initiative; in an ambush, the ambushers only."""


class HazeCheckBody(checks.HazeCheckRollRequest, Rendered):
    """Roll an ability check (see `GET /v1/haze/ability-checks` for each one's inputs)."""


class HazeCastBody(spells.HazeCastRollRequest, Rendered):
    """Cast a known spell or prayer: ability + the spell's level, its difficulty applied."""


class HazeActionResult(haze.RolledAction, DiceRolls):
    """An action: the roll, its success rate, any fumble's effect, the effect dice earned."""


class HazeEffectDice(haze.RolledEffect, DiceRolls):
    """Effect dice as rolled: every face (each 10 re-rolled and added), the total."""


class HazeReaction(haze.RolledReaction, DiceRolls):
    """Both rolls, what the defence took off, whether the blow lands, its exact chance."""


class HazeInitiative(haze.RolledInitiative, DiceRolls):
    """The rolls, who reacts first (groups acting together), an ambush's penalty (else 0)."""


class HazeAbilityCheck(haze.RolledCheck, DiceRolls):
    """A rolled ability check: the action roll, its exact chance and what it means."""


def seeded(play: Callable[[Any, str], BaseModel], result: type[BaseModel]) -> Service:
    """`play` with the request's seed (or a fresh one), answered as `result` with the dice
    it threw when the request asked with `render`."""

    def service(request: Any, call: Call) -> BaseModel:
        seed = request.seed if request.seed is not None else new_seed()
        found, rolls = recorded(play, request, seed)
        render = getattr(request, "render", None)
        dice = {} if render is None else {"dice_rolls": rendered(rolls, render)}
        return result.model_validate(dict(found) | dice)

    return service


def pure(answer: Callable[[Any], BaseModel]) -> Service:
    """A service that needs nothing but its request."""
    return lambda request, call: answer(request)


def effect_odds(request: rq.EffectOddsRequest, call: Call) -> out.ProbabilityReport:
    """The dice engine's exact report of the effect dice (`Nd10!`)."""
    return report(effect_distribution(request.count()))


SEEDED = "Without `seed` the service picks one and returns it; sending it back replays the roll."
RENDERED = SEEDED + (
    " With `render` (`[]`, or renderings such as `foundry`), `dice_rolls` lists every roll "
    "the rules made, each with its dice, like `/v1/dice/roll`."
)
H = "haze"


# fmt: off
def rolls(name: str, path: str, field: str, body: type[BaseModel], result: type[BaseModel],
          play: Callable[[Any, str], BaseModel], summary: str, **more: Any) -> UseCase:
    """The row of a use case that rolls: seeded, its dice shown on request."""
    return UseCase(name, "POST", path, "query", field, body, result, seeded(play, result),
                   summary, H, description=more.pop("description", RENDERED), **more)


def answers(name: str, path: str, field: str, request: type[BaseModel],
            result: type[BaseModel], answer: Callable[[Any], BaseModel], summary: str,
            **more: Any) -> UseCase:
    """The row of a use case that rolls nothing."""
    return UseCase(name, "POST", path, "query", field, request, result, pure(answer),
                   summary, H, **more)
# fmt: on


ROWS: tuple[UseCase, ...] = publishable(
    rolls("hazeAction", "/haze/actions", "haze_action", HazeActionBody, HazeActionResult,
          haze.action, "Roll an action", description="d10 ≤ ability + skill. " + RENDERED),
    answers("hazeActionOdds", "/haze/actions/odds", "haze_action_odds", rq.HazeOddsRequest,
            haze.HazeActionOdds, haze.action_odds_of, "Exact odds of an action"),
    rolls("hazeEffect", "/haze/effects", "haze_effect_dice", HazeEffectBody, HazeEffectDice,
          haze.effect, "Roll effect dice", cpu=True),
    UseCase("hazeEffectOdds", "POST", "/haze/effects/odds", "query", "haze_effect_odds",
            rq.EffectOddsRequest, out.ProbabilityReport, effect_odds,
            "Exact report of the effect dice", H, cpu=True),
    rolls("hazeReaction", "/haze/reactions", "haze_reaction", HazeReactionBody, HazeReaction,
          haze.reaction, "Roll an attack and its re-action"),
    answers("hazeReactionOdds", "/haze/reactions/odds", "haze_reaction_odds",
            rq.ReactionRequest, haze.HazeReactionOdds, haze.reaction_odds,
            "Exact chance an attack lands"),
    rolls("hazeInitiative", "/haze/initiative", "haze_initiative", HazeInitiativeBody,
          HazeInitiative, haze.initiative, "Roll initiative"),
    UseCase("hazeAbilityChecks", "GET", "/haze/ability-checks", "query",
            "haze_ability_checks", None, haze.HazeAbilityChecks, pure(haze.ability_checks),
            "The ability-check catalogue", H, errors=(401, 429)),
    rolls("hazeAbilityCheck", "/haze/ability-checks", "haze_ability_check", HazeCheckBody,
          HazeAbilityCheck, haze.ability_check, "Roll an ability check"),
    answers("hazeAbilityCheckOdds", "/haze/ability-checks/odds", "haze_ability_check_odds",
            checks.HazeCheckRequest, haze.HazeAbilityCheckOdds, haze.ability_check_odds,
            "Exact odds of an ability check"),
    answers("hazeLearnSpell", "/haze/spells/learn", "haze_learn_spell",
            spells.HazeLearnRequest, haze.HazeLearnedSpell, haze.learn_spell,
            "May a spell or prayer be learned"),
    rolls("hazeCastSpell", "/haze/spells/cast", "haze_cast_spell", HazeCastBody,
          HazeActionResult, haze.cast_spell, "Cast a spell or prayer"),
    answers("hazeCastSpellOdds", "/haze/spells/cast/odds", "haze_cast_spell_odds",
            spells.HazeCastRequest, haze.HazeActionOdds, haze.cast_spell_odds,
            "Exact odds of casting a spell or prayer"),
    rolls("hazeComplexAction", "/haze/complex-actions", "haze_complex_action",
          rq.HazeComplexRoundRequest, haze.HazeComplexAction, haze.complex_round,
          "Play one round of a complex action", description=SEEDED),
    answers("hazeComplexActionOdds", "/haze/complex-actions/odds", "haze_complex_action_odds",
            rq.HazeComplexOddsRequest, haze.HazeComplexOdds, haze.complex_action_odds,
            "Exact odds of a complex action", cpu=True),
    answers("hazeExhaustion", "/haze/exhaustion", "haze_exhaustion",
            rq.HazeExhaustionRequest, haze.HazeExhaustionPoints, haze.exhaustion,
            "Pay for actions, then maybe end the round"),
)  # fmt: skip
