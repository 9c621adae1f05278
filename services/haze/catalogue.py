"""The ability-check catalogue of haze.txt as data: which ability, how difficulty is set,
what a success means. `checks.py` turns an entry and its inputs into an action roll."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Literal

from services.haze.abilities import AbilityName
from services.markers import Named

_Check = Literal[
    "lift",
    "smash",
    "brace",
    "dodge",
    "vault",
    "leap",
    "balance",
    "resist_poison",
    "resist_disease",
    "resist_shock",
    "powers_of_deduction",
    "concentrate",
    "initiative",
    "insight",
    "befriend",
    "anticipate",
    "remember",
    "sympathy",
]
CheckName = Annotated[_Check, Named("HazeCheckName")]
# The inputs a check may take besides ability, skill, GM difficulty and modifier.
CheckInput = Literal[
    "weight_lb",
    "height_ft",
    "example",
    "attacker_success_rate",
    "poison_strength",
    "infectiousness",
    "shock_penalty",
    "human_like",
]
# How the check's own difficulty comes from its inputs (the GM's difficulty is added).
Rule = Literal[
    "gm",
    "per_100_lb",
    "per_foot",
    "example",
    "brace",
    "more_than_strength",
    "infectiousness",
]


@dataclass(frozen=True)
class CheckDef:
    """One catalogue entry: the text's words and the reading the engine applies."""

    name: CheckName
    ability: AbilityName
    rule: Rule
    difficulty: str
    result: str
    quote: str
    inputs: tuple[CheckInput, ...] = ()
    required: tuple[CheckInput, ...] = ()
    examples: dict[str, int] = field(default_factory=dict)


SMASH = {
    "crush_can": 1,
    "snap_neck": 3,
    "regular_door": 4,
    "exterior_door": 7,
    "support_pillar": 10,
}
# "holding a door closed" takes the attacker's success rate as difficulty; the spear's
# difficulty the text leaves to the GM (0 plus the GM's difficulty).
BRACE = {"door": 0, "spear": 0, "hay_wagon": 10}

_GM = "the GM's difficulty (the text sets none)"

CATALOGUE: tuple[CheckDef, ...] = (
    CheckDef("lift", "strength", "per_100_lb", "1 per 100 lb lifted (rounding: HazeRules."
             "per_unit_rounding)", "the object is picked up",
             "Difficulty for a lift is calculated at a rate of one point per 100 pounds of "
             "weight being lifted.", ("weight_lb",), ("weight_lb",)),
    CheckDef("smash", "strength", "example", "a named example's difficulty, or the GM's",
             "the door, can or pillar gives way",
             "Examples of difficulty ranges include; crushing a can 1, snapping a captives neck "
             "3, kicking in a regular door 4, kicking in an exterior door 7, tearing down a "
             "structural support pillar 10.", ("example",), (), SMASH),
    CheckDef("brace", "strength", "brace", "door: the attacker's success rate; hay_wagon: 10; "
             "spear: the GM's", "door: held (the bracer may take up to one die of damage per "
             "point of attacker success); spear: extra damage dice equal to the success rate; "
             "hay_wagon: stopped",
             "holding a door closed while someone attempts to batter it down (Difficulty is "
             "equal to the attackers success rate)", ("example", "attacker_success_rate"),
             ("example",), BRACE),
    CheckDef("dodge", "agility", "gm", _GM, "the attacker's hit success drops by the success "
             "rate; at zero the blow is evaded (ties: HazeRules.reaction_tie)",
             "Success at dodging reduces your opponents hitting success. If you reduce your "
             "attackers hit success to zero you completely evade the blow.",
             ("attacker_success_rate",)),
    CheckDef("vault", "agility", "per_foot", "1 per foot of height cleared (rounding: "
             "HazeRules.per_unit_rounding)", "the height is cleared",
             "Difficulty is determined at a rate of one point per foot of height being cleared.",
             ("height_ft",), ("height_ft",)),
    CheckDef("leap", "agility", "gm", _GM + "; the sentence is cut off in the text",
             "the gap is jumped without touching the ground",
             "Leaping is a measure of how far you can jump without touching the ground"),
    CheckDef("balance", "agility", "gm", "the GM's, from the room to move and how much the "
             "ground moves", "the AE stays on its feet",
             "Difficulty is calculated based on how much room for movement you have, and how "
             "much the environment is moving to thwart you."),
    CheckDef("resist_poison", "constitution", "more_than_strength", "the poison's strength + 1 "
             "(resisting needs more success than strength)", "each point of success counts "
             "against the poison's strength; more than its strength resists it",
             "each success counts against the strength of the poison, if you have more success "
             "points than the poison has strength then the poison is resisted.",
             ("poison_strength",), ("poison_strength",)),
    CheckDef("resist_disease", "constitution", "infectiousness", "the disease's infectiousness",
             "the disease is fended off",
             "your resist roll is checked against the infectiousness of the disease.",
             ("infectiousness",), ("infectiousness",)),
    CheckDef("resist_shock", "constitution", "gm", _GM, "shock penalties drop by the success "
             "rate for one round",
             "A resist shock roll can directly reduce these penalties for the duration of a "
             "round by a number equal to the success rate of a resist shock roll.",
             ("shock_penalty",)),
    CheckDef("powers_of_deduction", "intelligence", "gm", _GM, "the GM gives the player a hint",
             "the powers of deduction ability check gives hints to your player when his AE is "
             "confronted with a problem that is too hard for the player to solve."),
    CheckDef("concentrate", "willpower", "gm", _GM, "the AE stays focused (awake, attentive)",
             "concentration checks are made to stay awake when on guard duty"),
    CheckDef("initiative", "wits", "gm", "0 (wits + initiative; highest success rate first)",
             "the success rate orders who reacts first",
             "Your AE's initiative is a basic measure of their reaction speed."),
    CheckDef("insight", "wits", "gm", _GM, "the GM gives a hint on a mental problem",
             "In game terms successful checks give hints when confronted with mental problems."),
    CheckDef("befriend", "charisma", "gm", _GM, "a bonus equal to the success rate on later "
             "social rolls with that person (as `modifier`)",
             "If you manage to befriend a creature then you gain a bonus equal to your success "
             "rate to all future social rolls involving that person that don't directly "
             "contradict that persons preferences.", ("human_like",)),
    CheckDef("anticipate", "wisdom", "gm", _GM, "the AE foresees what happens next",
             "Your past experience tips to off as to what is about to happen next..."),
    CheckDef("remember", "wisdom", "gm", _GM, "the AE recalls the fact",
             "Your manage to recall facts from memory"),
    CheckDef("sympathy", "empathy", "gm", _GM, "the AE perceives the other's feelings (with "
             "befriend: what the new friend would agree to)",
             "Sympathy is your ability to perceive the feelings of others."),
)  # fmt: skip

BY_NAME: dict[CheckName, CheckDef] = {c.name: c for c in CATALOGUE}


def check_def(name: CheckName) -> CheckDef:
    """The catalogue entry of a check."""
    return BY_NAME[name]
