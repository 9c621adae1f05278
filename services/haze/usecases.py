"""The Haze use cases the API calls: one request model in, one result model out.

A use case that rolls takes the seed (the API picks a fresh one when the caller gives
none) and answers it, so every roll replays. Exact probabilities are `Chance`s.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any, Self

from pydantic import BaseModel, ConfigDict

from services.chance import Chance
from services.dice import seeded_rng
from services.haze.abilities import AbilityName
from services.haze.catalogue import CATALOGUE, CheckDef, CheckInput, CheckName
from services.haze.checks import (
    CheckMeaning,
    HazeCheckRequest,
    HazeCheckRollRequest,
    check_odds,
    roll_check,
)
from services.haze.complex import Status as ComplexStatus
from services.haze.complex import give_up
from services.haze.complex_odds import complex_odds
from services.haze.complex_round import Participant, RoundResult, check_participants, play_round
from services.haze.effect import EffectRoll, effect_dice_for, roll_effect
from services.haze.exhaustion import AspectPool, Exhaustion, end_round, spend
from services.haze.initiative import InitiativeRoll, roll_initiatives
from services.haze.odds import ActionOdds, action_odds
from services.haze.outcome import ActionOutcome, roll_action
from services.haze.reaction import ReactionOutcome, hit_odds, penalised, roll_reaction
from services.haze.requests import (
    EffectRequest,
    HazeActionRequest,
    HazeComplexOddsRequest,
    HazeComplexRoundRequest,
    HazeExhaustionRequest,
    HazeOddsRequest,
    InitiativeRequest,
    ReactionRequest,
    ReactionRollRequest,
)
from services.haze.spells import (
    HazeCastRequest,
    HazeCastRollRequest,
    HazeLearnRequest,
    HazeSpell,
    cast,
    cast_odds,
    cast_spec,
    learn,
)
from services.markers import Named

InputName = Annotated[CheckInput, Named("HazeCheckInputName")]


class HazeResult(BaseModel):
    """Base of the Haze results: built from the rules' own values, never coerced."""

    model_config = ConfigDict(frozen=True, strict=True)


def exact(value: Any) -> Any:
    """A rules model as plain data, every exact probability a Chance."""
    if isinstance(value, Fraction):
        return Chance.of(value)
    if isinstance(value, BaseModel):
        return {name: exact(getattr(value, name)) for name in type(value).model_fields}
    if isinstance(value, list):
        return [exact(v) for v in value]
    return value


class HazeEffectRoll(EffectRoll):
    """Effect dice as rolled: every face thrown (each 10 re-rolled and added), the total."""


class HazeActionOutcome(ActionOutcome):
    """An action: the roll (null for an arbitrary success), margin = target − roll,
    success rate = margin − difficulty, and a fumble's one effect die."""

    arbitrary: bool
    fumble_effect: HazeEffectRoll | None


class RolledAction(HazeActionOutcome):
    """An action: the roll, its success rate, any fumble's effect, the effect dice earned."""

    effect_dice: int
    seed: str


class HazeRatePoint(Chance):
    """P(success rate = value) on a face other than the fumble."""

    value: int


class HazeActionOdds(HazeResult):
    """Exact P(success), P(failure), the fumble as its own bucket, and the success-rate
    law of the nine other faces (Σ success_rate + fumble = 1)."""

    target: int
    difficulty: int
    arbitrary: bool
    success: Chance
    fumble: Chance
    fumble_success_rate: int | None
    fumble_succeeds: bool
    failure: Chance
    success_rate: list[HazeRatePoint]

    @classmethod
    def of(cls, odds: ActionOdds, **extra: Any) -> Self:
        """The rules' odds, with `extra` fields (a subclass's)."""
        rates = [HazeRatePoint(value=v, **dict(Chance.of(p))) for v, p in odds.success_rate.items()]
        data = exact(odds) | {"success_rate": rates}
        return cls.model_validate(data | extra)


class HazeAbilityCheckOdds(HazeActionOdds):
    """The exact odds of an ability check's action roll."""

    check: CheckName
    ability: AbilityName


class RolledEffect(HazeEffectRoll):
    """Effect dice as rolled: every face (each 10 re-rolled and added), the total."""

    seed: str


class HazeReactionOutcome(ReactionOutcome):
    """What the re-action took off the attacker's success rate, and whether the blow lands."""


class RolledReaction(HazeResult):
    """Both rolls, what the defence took off, whether the blow lands, its exact chance."""

    attack: HazeActionOutcome
    defence: HazeActionOutcome | None
    penalty: int
    outcome: HazeReactionOutcome
    hit_odds: Chance
    seed: str


class HazeReactionOdds(HazeResult):
    """The exact chance of a hit, and the initiative penalty the re-action took."""

    penalty: int
    hit: Chance


class HazeInitiativeRoll(InitiativeRoll):
    """A combatant's initiative: the roll and its success rate."""

    initiative: int
    roll: int | None


class RolledInitiative(HazeResult):
    """The rolls, who reacts first (groups acting together), an ambush's penalty (else 0)."""

    rolls: list[HazeInitiativeRoll]
    order: list[list[str]]
    ambush: bool
    penalty: int
    seed: str


class HazeCheckExample(HazeResult):
    """A named difficulty the text gives as an example."""

    name: str
    difficulty: int


class HazeCheckEntry(HazeResult):
    """An ability check: its ability, how its difficulty is set (`difficulty`), what a
    success means (`result`), the text's sentence (`quote`) and its own inputs."""

    name: CheckName
    ability: AbilityName
    difficulty: str
    result: str
    quote: str
    inputs: list[InputName]
    required: list[InputName]
    examples: list[HazeCheckExample]


class HazeAbilityChecks(HazeResult):
    """The ability-check catalogue of haze.txt."""

    checks: list[HazeCheckEntry]


class RolledCheck(HazeResult, CheckMeaning):
    """A rolled ability check: the action roll, its exact chance and what it means."""

    check: CheckName
    ability: AbilityName
    difficulty: int
    meaning: str
    outcome: HazeActionOutcome
    success_chance: Chance
    seed: str


class HazeLearnedSpell(HazeResult):
    """A spell or prayer the AE may learn; its own skill starts at level 0."""

    spell: HazeSpell
    school_score: int
    level: int


class HazeComplexAction(HazeResult):
    """A complex action after a round: total, status, each participant's points left and
    roll (null when it could not pay), and the seed that replays it."""

    difficulty: int
    total: int
    rounds: int
    remaining: int
    status: ComplexStatus
    points: list[int]
    rolls: list[HazeActionOutcome | None]
    seed: str


class HazeRoundOdds(HazeResult):
    """P(the action ends at this round), split by how it ends."""

    round: int
    chance: Chance
    done: Chance
    fumbled: Chance
    exhausted: Chance
    given_up: Chance


class HazeComplexOdds(HazeResult):
    """Exact P(done), P(fumbled), P(exhausted), P(given up at max_rounds), the law of the
    rounds played from the state given, and their mean (an exact rational)."""

    done: Chance
    fumbled: Chance
    exhausted: Chance
    given_up: Chance
    mean_rounds: Chance
    max_rounds: int
    rounds: list[HazeRoundOdds]


class HazeAspectPoints(HazeResult):
    """One aspect's exhaustion points, this round's actions and spending, and the next."""

    health: int
    points: int
    actions: int
    spent: int
    next_cost: int
    can_act: bool

    @classmethod
    def of(cls, pool: AspectPool) -> HazeAspectPoints:
        """A pool and what its next action would cost."""
        data = pool.model_dump() | {"next_cost": pool.next_cost(), "can_act": pool.can_act()}
        return cls.model_validate(data)


class HazeExhaustionPoints(HazeResult):
    """The exhaustion points of body, mind and soul."""

    body: HazeAspectPoints
    mind: HazeAspectPoints
    soul: HazeAspectPoints


def _rolled(outcome: ActionOutcome, dice: int, seed: str) -> RolledAction:
    return RolledAction.model_validate(outcome.model_dump() | {"effect_dice": dice, "seed": seed})


def action(request: HazeActionRequest, seed: str) -> RolledAction:
    """Roll d10 ≤ ability + skill (or take an arbitrary success)."""
    rng, spec = seeded_rng(seed), request.action
    outcome = roll_action(spec, rng, request.rules, take_arbitrary=request.arbitrary)
    return _rolled(outcome, effect_dice_for(spec, request.rules), seed)


def action_odds_of(request: HazeOddsRequest) -> HazeActionOdds:
    """Exact P(success), P(fumble) and the success-rate distribution of an action."""
    odds = action_odds(request.action, request.rules, take_arbitrary=request.arbitrary)
    return HazeActionOdds.of(odds)


def effect(request: EffectRequest, seed: str) -> RolledEffect:
    """Roll `dice` (or ⌊(ability + skill)/2⌋ + modifiers) open-ended effect dice."""
    rolled = roll_effect(request.count(), seeded_rng(seed))
    return RolledEffect.model_validate(rolled.model_dump() | {"seed": seed})


def reaction(request: ReactionRollRequest, seed: str) -> RolledReaction:
    """Roll an attack and its re-action (less the initiative penalty)."""
    args = (request.attack, request.defence, seeded_rng(seed), request.rules, request.penalty)
    return RolledReaction.model_validate(exact(roll_reaction(*args)) | {"seed": seed})


def reaction_odds(request: ReactionRequest) -> HazeReactionOdds:
    """The exact chance the attack lands through the re-action (or alone, without one)."""
    if request.defence is None:
        odds = action_odds(request.attack, request.rules).success
    else:
        defence = penalised(request.defence, request.penalty)
        odds = hit_odds(request.attack, defence, request.rules)
    return HazeReactionOdds(penalty=request.penalty, hit=Chance.of(odds))


def initiative(request: InitiativeRequest, seed: str) -> RolledInitiative:
    """Everyone's wits + initiative roll (an ambush: the ambushers'), and who acts first."""
    args = (request.combatants, seeded_rng(seed), request.rules, request.ambushers)
    return RolledInitiative.model_validate(roll_initiatives(*args).model_dump() | {"seed": seed})


def _entry(entry: CheckDef) -> HazeCheckEntry:
    examples = [HazeCheckExample(name=n, difficulty=d) for n, d in entry.examples.items()]
    return HazeCheckEntry(
        name=entry.name, ability=entry.ability, difficulty=entry.difficulty,
        result=entry.result, quote=entry.quote, inputs=list(entry.inputs),
        required=list(entry.required), examples=examples,
    )  # fmt: skip


def ability_checks(request: None) -> HazeAbilityChecks:
    """Every ability check of the catalogue."""
    return HazeAbilityChecks(checks=[_entry(entry) for entry in CATALOGUE])


def ability_check(request: HazeCheckRollRequest, seed: str) -> RolledCheck:
    """Roll a check through the action roll; what its result means."""
    return RolledCheck.model_validate(exact(roll_check(request, seeded_rng(seed))) | {"seed": seed})


def ability_check_odds(request: HazeCheckRequest) -> HazeAbilityCheckOdds:
    """The exact odds of a check's action roll."""
    extra = {"check": request.check, "ability": request.entry.ability}
    return HazeAbilityCheckOdds.of(check_odds(request), **extra)


def learn_spell(request: HazeLearnRequest) -> HazeLearnedSpell:
    """Allowed only with a school score above the spell's difficulty."""
    return HazeLearnedSpell.model_validate(learn(request.spell, request.school_score).model_dump())


def cast_spell(request: HazeCastRollRequest, seed: str) -> RolledAction:
    """Roll ability + the spell's level against its difficulty (plus the GM's)."""
    outcome = cast(request, seeded_rng(seed))
    return _rolled(outcome, effect_dice_for(cast_spec(request), request.rules), seed)


def cast_spell_odds(request: HazeCastRequest) -> HazeActionOdds:
    """The exact odds of the casting roll."""
    return HazeActionOdds.of(cast_odds(request))


def complex_round(request: HazeComplexRoundRequest, seed: str) -> HazeComplexAction:
    """Play one round of a complex action (or give up): everyone with points rolls once."""
    people: list[Participant] = list(request.participants)
    check_participants(people)
    if request.give_up:
        played = RoundResult(
            action=give_up(request.action), participants=people, rolls=[None] * len(people)
        )
    else:
        played = play_round(request.action, people, seeded_rng(seed), request.rules)
    state = played.action
    return HazeComplexAction.model_validate(
        state.model_dump() | {"remaining": state.remaining, "seed": seed,
         "points": [p.points for p in played.participants], "rolls": exact(played.rolls)}
    )  # fmt: skip


def complex_action_odds(request: HazeComplexOddsRequest) -> HazeComplexOdds:
    """How and after how many rounds a complex action ends, exactly."""
    args = (request.action, request.participants, request.rules, request.max_rounds)
    return HazeComplexOdds.model_validate(exact(complex_odds(*args)))


def exhaustion(request: HazeExhaustionRequest) -> HazeExhaustionPoints:
    """Pay for each action in order (the nth of a round costs n), then maybe end the round."""
    state: Exhaustion = request.state
    for aspect in request.actions:
        state = spend(state, aspect)
    if request.end_round:
        state = end_round(state, request.rules)
    pools = {aspect: HazeAspectPoints.of(state.pool(aspect)) for aspect in ("body", "mind", "soul")}
    return HazeExhaustionPoints.model_validate(pools)
