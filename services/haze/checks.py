"""Ability checks: a catalogue entry and its inputs → an action roll → what it means."""

from __future__ import annotations

from fractions import Fraction
from math import ceil, floor
from typing import Annotated, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from services.dice import Rng
from services.errors import field_error
from services.haze.abilities import AbilityName, Score
from services.haze.action import MAX_DIFFICULTY, ActionSpec, Difficulty, Level, Modifier
from services.haze.catalogue import CheckDef, CheckInput, CheckName, check_def
from services.haze.errors import CannotBefriend
from services.haze.odds import ActionOdds, action_odds
from services.haze.outcome import ActionOutcome, resolve, roll_action
from services.haze.reaction import defence_value
from services.haze.rules import DEFAULT_RULES, HazeRules

Rate = Annotated[int, Field(ge=0, le=50)]


class HazeCheckRequest(BaseModel):
    """An ability check: which one, the AE's ability score and skill of the same name, the
    GM's difficulty and modifier, and the check's own inputs (see the catalogue)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    check: CheckName
    ability: Score
    skill: Level = 0
    difficulty: Difficulty = 0
    modifier: Modifier = 0
    weight_lb: Annotated[float, Field(ge=0, le=10_000)] | None = None
    height_ft: Annotated[float, Field(ge=0, le=100)] | None = None
    example: Annotated[str, Field(min_length=1, max_length=50)] | None = None
    attacker_success_rate: Rate | None = None
    poison_strength: Rate | None = None
    infectiousness: Rate | None = None
    shock_penalty: Rate | None = None
    human_like: bool | None = None
    rules: HazeRules = Field(default_factory=HazeRules)

    @model_validator(mode="after")
    def _inputs_fit_the_check(self) -> HazeCheckRequest:
        entry = check_def(self.check)
        given = {name for name in INPUTS if getattr(self, name) is not None}
        if extra := sorted(given - set(entry.inputs)):
            raise field_error(extra[0], f"{self.check} takes no {', '.join(extra)}")
        if missing := sorted(set(entry.required) - given):
            raise field_error(missing[0], f"{self.check} needs {', '.join(missing)}")
        if self.example is not None and self.example not in entry.examples:
            raise field_error("example", f"{self.check} examples are {', '.join(entry.examples)}")
        if self.check == "brace" and (self.example == "door") != (
            self.attacker_success_rate is not None
        ):
            need = "attacker_success_rate is for bracing a door, and it needs it"
            raise field_error("attacker_success_rate", need)
        if check_difficulty(self) > MAX_DIFFICULTY:
            raise ValueError(f"the whole difficulty may not exceed {MAX_DIFFICULTY}")
        return self

    @property
    def entry(self) -> CheckDef:
        """The catalogue entry of this check."""
        return check_def(self.check)


INPUTS: tuple[CheckInput, ...] = get_args(CheckInput)


class HazeCheckRollRequest(HazeCheckRequest):
    """Roll an ability check (see `GET /v1/haze/ability-checks` for each one's inputs)."""

    seed: Annotated[str, Field(min_length=1, max_length=256)] | None = None


class CheckMeaning(BaseModel):
    """What a check's result means: only the fields of the check's kind are set."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    resisted: bool | None = None
    strength_left: int | None = None
    penalty_reduction: int | None = None
    penalty_left: int | None = None
    extra_damage_dice: int | None = None
    damage_dice_up_to: int | None = None
    attack_success_left: int | None = None
    evaded: bool | None = None
    social_bonus: int | None = None
    hint: bool | None = None


class CheckResult(CheckMeaning):
    """A rolled check: the action roll, its exact chance, and what the result means.

    Only the fields of the check's kind are set; the others stay null.
    """

    check: CheckName
    ability: AbilityName
    difficulty: int
    meaning: str
    outcome: ActionOutcome
    success_chance: Fraction


def units(amount: float, per: int, rules: HazeRules = DEFAULT_RULES) -> int:
    """Difficulty points at one per `per` units; a part unit rounds as the table sets."""
    exact = Fraction(amount) / per
    return ceil(exact) if rules.per_unit_rounding == "up" else floor(exact)


def own_difficulty(req: HazeCheckRequest) -> int:
    """The difficulty the check's own inputs give, before the GM's is added."""
    entry = req.entry
    match entry.rule:
        case "per_100_lb":
            return units(req.weight_lb or 0, 100, req.rules)
        case "per_foot":
            return units(req.height_ft or 0, 1, req.rules)
        case "example":
            return entry.examples[req.example] if req.example is not None else 0
        case "brace" if req.example == "door":
            return req.attacker_success_rate or 0
        case "brace":
            return entry.examples[req.example or "spear"]
        case "more_than_strength":
            # "more success points than the poison has strength": strength + 1 to resist.
            return (req.poison_strength or 0) + 1
        case "infectiousness":
            return req.infectiousness or 0
        case "gm":
            return 0


def check_difficulty(req: HazeCheckRequest) -> int:
    """The check's difficulty plus the GM's."""
    return own_difficulty(req) + req.difficulty


def check_spec(req: HazeCheckRequest) -> ActionSpec:
    """The action roll of the check: the ability plus the skill of the same name."""
    return ActionSpec(
        ability=req.ability, skill=req.skill, difficulty=check_difficulty(req),
        modifier=req.modifier,
    )  # fmt: skip


def _counted(req: HazeCheckRequest, outcome: ActionOutcome) -> int:
    """Success points that count against something: the margin past the GM's difficulty."""
    failed = outcome.fumble and not outcome.success
    return 0 if failed else max(0, outcome.margin - req.difficulty)


def _meaning(req: HazeCheckRequest, outcome: ActionOutcome) -> dict[str, int | bool | None]:
    rate = max(0, outcome.success_rate) if outcome.success else 0
    match req.check:
        case "resist_poison":
            strength = req.poison_strength or 0
            counted = _counted(req, outcome)
            return {"resisted": outcome.success, "strength_left": max(0, strength - counted)}
        case "resist_disease":
            return {"resisted": outcome.success}
        case "resist_shock":
            left = None if req.shock_penalty is None else max(0, req.shock_penalty - rate)
            return {"penalty_reduction": rate, "penalty_left": left}
        case "brace" if req.example == "door":
            return {"damage_dice_up_to": req.attacker_success_rate}
        case "brace" if req.example == "spear":
            return {"extra_damage_dice": rate}
        case "dodge":
            return _dodge(req, outcome)
        case "befriend":
            return {"social_bonus": rate}
        case "powers_of_deduction" | "insight":
            return {"hint": outcome.success}
    return {}


def _dodge(req: HazeCheckRequest, outcome: ActionOutcome) -> dict[str, int | bool | None]:
    if req.attacker_success_rate is None:
        return {}
    left = req.attacker_success_rate - defence_value(outcome)
    # The same tie rule as every re-action: at 0 the blow lands unless ties go to defenders.
    evaded = outcome.success and (left < 0 or (left == 0 and req.rules.reaction_tie == "defender"))
    return {"attack_success_left": max(0, left), "evaded": evaded}


def allowed(req: HazeCheckRequest) -> None:
    """Refuse a check the text rules out (befriending a creature unlike us)."""
    if req.check == "befriend" and req.human_like is False:
        raise CannotBefriend(
            "befriend needs a creature you can talk to, of human-like intelligence and culture"
        )


def resolve_check(req: HazeCheckRequest, outcome: ActionOutcome) -> CheckResult:
    """What a check's action outcome means under the catalogue's reading."""
    allowed(req)
    entry = req.entry
    odds = action_odds(check_spec(req), req.rules).success
    result = CheckResult(
        check=req.check, ability=entry.ability, difficulty=outcome.difficulty,
        meaning=entry.result, outcome=outcome, success_chance=odds,
    )  # fmt: skip
    return result.model_copy(update=_meaning(req, outcome))


def resolve_check_face(req: HazeCheckRequest, face: int) -> CheckResult:
    """The check with the action die showing `face`."""
    return resolve_check(req, resolve(check_spec(req), face, req.rules))


def roll_check(req: HazeCheckRequest, rng: Rng) -> CheckResult:
    """Roll the check through the Haze action roll (a 10 fumbles as always)."""
    allowed(req)
    return resolve_check(req, roll_action(check_spec(req), rng, req.rules))


def check_odds(req: HazeCheckRequest) -> ActionOdds:
    """Exact odds of the check's action roll (success = resisted, held, evaded …)."""
    allowed(req)
    return action_odds(check_spec(req), req.rules)
