"""Re-actions: the defender's success rate counts against the attacker's as difficulty."""

from __future__ import annotations

from fractions import Fraction

from pydantic import BaseModel, ConfigDict

from services.haze.action import ActionSpec
from services.haze.outcome import ACTION_DIE, ActionOutcome, resolve
from services.haze.rules import DEFAULT_RULES, HazeRules


class ReactionOutcome(BaseModel):
    """An attack met by a re-action: what the defence took off and whether it landed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    attack_success_rate: int
    defence: int
    success_rate: int
    hit: bool


def defence_value(defence: ActionOutcome | None) -> int:
    """What a re-action takes off the attacker: its success rate if it succeeded, else 0."""
    if defence is None or not defence.success:
        return 0
    return max(0, defence.success_rate)


def resolve_reaction(
    attack: ActionOutcome, defence: ActionOutcome | None, rules: HazeRules = DEFAULT_RULES
) -> ReactionOutcome:
    """Whether the attack lands once the defender's success is counted against it."""
    against = defence_value(defence)
    rate = attack.success_rate - against
    if not attack.success:
        hit = False
    elif against == 0:
        hit = True
    else:
        hit = rate > 0 or (rate == 0 and rules.reaction_tie == "attacker")
    return ReactionOutcome(
        attack_success_rate=attack.success_rate, defence=against, success_rate=rate, hit=hit
    )


def hit_odds(attack: ActionSpec, defence: ActionSpec, rules: HazeRules = DEFAULT_RULES) -> Fraction:
    """Exact P(the attack lands) over the 100 pairs of action dice."""
    defences = [resolve(defence, face, rules) for face in range(1, ACTION_DIE + 1)]
    hits = 0
    for face in range(1, ACTION_DIE + 1):
        blow = resolve(attack, face, rules)
        hits += sum(resolve_reaction(blow, d, rules).hit for d in defences)
    return Fraction(hits, ACTION_DIE * ACTION_DIE)
