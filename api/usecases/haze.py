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

from api.rolls import RENDER_NOTE, rendering, rolled, with_dice
from api.usecases import dice_results as out
from api.usecases.dice import report
from api.usecases.table import Call, Service, UseCase, publishable
from services.haze import checks, effect_distribution, spells
from services.haze import requests as rq
from services.haze import usecases as haze

# The rolling rules' bodies (with `render`) and answers (with `dice_rolls`).
HazeActionBody = rendering("HazeActionBody", rq.HazeActionRequest)
HazeEffectBody = rendering("HazeEffectBody", rq.EffectRequest)
HazeReactionBody = rendering("HazeReactionBody", rq.ReactionRollRequest)
HazeInitiativeBody = rendering("HazeInitiativeBody", rq.InitiativeRequest)
HazeCheckBody = rendering("HazeCheckBody", checks.HazeCheckRollRequest)
HazeCastBody = rendering("HazeCastBody", spells.HazeCastRollRequest)
HazeActionResult = with_dice("HazeActionResult", haze.RolledAction)
HazeEffectDice = with_dice("HazeEffectDice", haze.RolledEffect)
HazeReaction = with_dice("HazeReaction", haze.RolledReaction)
HazeInitiative = with_dice("HazeInitiative", haze.RolledInitiative)
HazeAbilityCheck = with_dice("HazeAbilityCheck", haze.RolledCheck)


def pure(answer: Callable[[Any], BaseModel]) -> Service:
    """A service that needs nothing but its request."""
    return lambda request, call: answer(request)


def effect_odds(request: rq.EffectOddsRequest, call: Call) -> out.ProbabilityReport:
    """The dice engine's exact report of the effect dice (`Nd10!`)."""
    return report(effect_distribution(request.count()))


SEEDED = "Without `seed` the service picks one and returns it; sending it back replays the roll."
RENDERED = SEEDED + RENDER_NOTE
H = "haze"


# fmt: off
def rolls(name: str, path: str, field: str, body: type[BaseModel], result: type[BaseModel],
          play: Callable[[Any, str], BaseModel], summary: str, **more: Any) -> UseCase:
    """The row of a use case that rolls: seeded, its dice shown on request."""
    return UseCase(name, "POST", path, "query", field, body, result, rolled(play, result),
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
