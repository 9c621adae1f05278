"""Re-actions: the defender's success rate counts against the attacker's as difficulty."""

from __future__ import annotations

from fractions import Fraction

from pydantic import BaseModel, ConfigDict

from services.dice import Rng
from services.haze.action import ActionSpec
from services.haze.outcome import ACTION_DIE, ActionOutcome, resolve, roll_action
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
    defended = defence is not None and defence.success
    if not attack.success:
        hit = False
    elif not defended:
        hit = True
    else:
        # "If you reduce your attackers hit success to zero you completely evade the
        # blow": under `defender`, a net rate of 0 is an evasion even when the defence's
        # own rate was 0 (it took off nothing from an attack that only just succeeded).
        hit = rate > 0 or (rate == 0 and rules.reaction_tie == "attacker")
    return ReactionOutcome(
        attack_success_rate=attack.success_rate, defence=against, success_rate=rate, hit=hit
    )


class ReactionRoll(BaseModel):
    """Both rolls of an attack met by a re-action, the result and the exact odds of a hit."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    attack: ActionOutcome
    defence: ActionOutcome | None
    penalty: int
    outcome: ReactionOutcome
    hit_odds: Fraction


def penalised(defence: ActionSpec, penalty: int) -> ActionSpec:
    """The re-action with the initiative penalty taken off its target."""
    return defence.model_copy(update={"modifier": defence.modifier - penalty})


def roll_reaction(
    attack: ActionSpec,
    defence: ActionSpec | None,
    rng: Rng,
    rules: HazeRules = DEFAULT_RULES,
    penalty: int = 0,
) -> ReactionRoll:
    """Roll the attack, then the re-action (less the initiative penalty), and resolve them."""
    defended = penalised(defence, penalty) if defence is not None else None
    blow = roll_action(attack, rng, rules)
    guard = roll_action(defended, rng, rules) if defended is not None else None
    odds = hit_odds(attack, defended, rules) if defended is not None else _hit_alone(attack, rules)
    return ReactionRoll(
        attack=blow,
        defence=guard,
        penalty=penalty,
        outcome=resolve_reaction(blow, guard, rules),
        hit_odds=odds,
    )


def _hit_alone(attack: ActionSpec, rules: HazeRules) -> Fraction:
    hits = sum(resolve(attack, face, rules).success for face in range(1, ACTION_DIE + 1))
    return Fraction(hits, ACTION_DIE)


def hit_odds(attack: ActionSpec, defence: ActionSpec, rules: HazeRules = DEFAULT_RULES) -> Fraction:
    """Exact P(the attack lands) over the 100 pairs of action dice."""
    defences = [resolve(defence, face, rules) for face in range(1, ACTION_DIE + 1)]
    hits = 0
    for face in range(1, ACTION_DIE + 1):
        blow = resolve(attack, face, rules)
        hits += sum(resolve_reaction(blow, d, rules).hit for d in defences)
    return Fraction(hits, ACTION_DIE * ACTION_DIE)
