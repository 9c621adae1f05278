"""Initiative: wits + initiative, highest success rate first; penalties and ambushes."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from pydantic import BaseModel, ConfigDict, Field

from services.dice import Rng
from services.haze.abilities import Score
from services.haze.action import ActionSpec, Level
from services.haze.errors import UnknownCombatant
from services.haze.outcome import roll_action
from services.haze.rules import DEFAULT_RULES, HazeRules


def initiative_spec(wits: int, initiative: int = 0) -> ActionSpec:
    """The initiative roll: wits plus the initiative skill (an ability check without it)."""
    return ActionSpec(ability=wits, skill=initiative)


class InitiativeRoll(BaseModel):
    """One combatant's initiative: who, their success rate, and wits (for ties)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    name: str = Field(min_length=1, max_length=100)
    success_rate: int = Field(ge=-50, le=50)
    wits: Score
    initiative: Level = 0
    roll: int | None = None


class Combatant(BaseModel):
    """Someone in the action sequence: a name, wits and the initiative skill."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    name: str = Field(min_length=1, max_length=100)
    wits: Score
    initiative: Level = 0


class InitiativeResult(BaseModel):
    """The rolls, who reacts first (groups), and the ambush's first-round penalty."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rolls: list[InitiativeRoll]
    order: list[list[str]]
    ambush: bool
    penalty: int


def initiative_order(
    rolls: Sequence[InitiativeRoll], rules: HazeRules = DEFAULT_RULES
) -> list[list[str]]:
    """Who reacts first: groups of names, best success rate first; a group acts together."""
    if rules.initiative_ties == "wits":

        def key(r: InitiativeRoll) -> tuple[int, ...]:
            return (-r.success_rate, -r.wits)

    else:

        def key(r: InitiativeRoll) -> tuple[int, ...]:
            return (-r.success_rate,)

    ordered = sorted(rolls, key=key)
    return [[r.name for r in group] for _, group in groupby(ordered, key=key)]


def reaction_penalty(attacker_initiative: int, defender_initiative: int) -> int:
    """The defender's penalty to re-actions against this attacker this round."""
    return max(0, attacker_initiative - defender_initiative)


def ambush_penalty(ambusher_initiatives: Sequence[int]) -> int:
    """Everyone's first-round penalty in an ambush: the (best) ambusher's success rate."""
    return max([0, *ambusher_initiatives])


def ambush_first_round(
    ambushers: Sequence[InitiativeRoll], rules: HazeRules = DEFAULT_RULES
) -> list[list[str]]:
    """Who acts in a successful ambush's first round: the ambushers alone, in order.

    Everyone rolls initiative again after that round; a failed ambush is a normal fight.
    """
    return initiative_order(ambushers, rules)


def roll_initiatives(
    combatants: Sequence[Combatant],
    rng: Rng,
    rules: HazeRules = DEFAULT_RULES,
    ambushers: Sequence[str] = (),
) -> InitiativeResult:
    """Everyone rolls wits + initiative; in an ambush only the ambushers roll.

    "In an ambush situation only the ambushers have an initiative roll in the first round"
    and "the success rate of the ambusher is everyone's penalty for the first round".
    """
    names = [c.name for c in combatants]
    if len(set(names)) != len(names) or any(a not in names for a in ambushers):
        raise UnknownCombatant("names must be unique and every ambusher a combatant")
    rolling = [c for c in combatants if not ambushers or c.name in ambushers]
    rolls: list[InitiativeRoll] = []
    for c in rolling:
        outcome = roll_action(initiative_spec(c.wits, c.initiative), rng, rules)
        rolls.append(
            InitiativeRoll(
                name=c.name,
                success_rate=outcome.success_rate,
                wits=c.wits,
                initiative=c.initiative,
                roll=outcome.roll,
            )
        )
    if ambushers:
        penalty = ambush_penalty([r.success_rate for r in rolls])
        return InitiativeResult(
            rolls=rolls, order=ambush_first_round(rolls, rules), ambush=True, penalty=penalty
        )
    return InitiativeResult(
        rolls=rolls, order=initiative_order(rolls, rules), ambush=False, penalty=0
    )
