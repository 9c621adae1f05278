"""Exact odds of a complex action: a finite Markov chain over the running total.

Who rolls in which round never depends on the dice (each roll costs its point whatever it
shows), so the payment schedule is replayed first with `pay_round`; the chain then only
tracks the total. Weights are integers over a shared denominator of 10^(dice thrown), made
Fractions once at the end. Totals that can no longer reach the difficulty are merged into
one "hopeless" weight: their only remaining fate is a fumble, exhaustion or giving up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from services.haze.complex import ComplexAction
from services.haze.complex_round import Participant, check_participants, pay_round
from services.haze.errors import ComplexActionOver, ComplexOddsTooCostly
from services.haze.outcome import ACTION_DIE, resolve
from services.haze.rules import DEFAULT_RULES, HazeRules

MAX_ROUNDS = 100
DEFAULT_MAX_ROUNDS = 20
MAX_PARTICIPANTS = 8
# Dictionary updates the chain may make (an upper bound, estimated before any work):
# about 0.3 s of CPU at worst (0.5–0.6 µs a step measured).
MAX_WORK = 500_000

Rounds = Annotated[int, Field(ge=1, le=MAX_ROUNDS)]


class RoundOdds(BaseModel):
    """How likely the action ends at this round, and how it ends."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    round: int
    chance: Fraction
    done: Fraction
    fumbled: Fraction
    exhausted: Fraction
    given_up: Fraction


class ComplexOdds(BaseModel):
    """P(done), P(fumbled), P(exhausted), P(given up at the horizon), rounds and their mean.

    Rounds count from the state given (a fresh action: from the first roll); an action that
    runs out of points ends after its last paid round; one still going after `max_rounds`
    is given up then, so the mean is over the rounds actually played up to the horizon.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    done: Fraction
    fumbled: Fraction
    exhausted: Fraction
    given_up: Fraction
    mean_rounds: Fraction
    max_rounds: int
    rounds: list[RoundOdds]


Face = tuple[int, bool]  # (success rate, fumble) of one face


def _faces(p: Participant, rules: HazeRules) -> list[Face]:
    outcomes = [resolve(p.spec, face, rules) for face in range(1, ACTION_DIE + 1)]
    return [(o.success_rate, o.fumble) for o in outcomes]


def schedule(
    participants: Sequence[Participant], max_rounds: int, rules: HazeRules = DEFAULT_RULES
) -> tuple[list[list[int]], bool]:
    """Who rolls in each round, and whether the points run out (else: given up at the horizon)."""
    rounds: list[list[int]] = []
    people = list(participants)
    for _ in range(max_rounds + 1):
        rolling, people = pay_round(people, rules)
        who = [i for i, r in enumerate(rolling) if r]
        if not who:
            return rounds, True
        if len(rounds) == max_rounds:
            return rounds, False
        rounds.append(who)
    raise AssertionError("unreachable")  # pragma: no cover


@dataclass(frozen=True)
class _Plan:
    """The rates each roller may add each round and the best gain still to come."""

    rounds: list[list[list[int]]]  # round → roller → the rates it may add, one per face
    fumbles: list[int]  # round → how many face combinations fumble (when fumbles end it)
    suffix: list[int]  # round → the most the rolls from this round on can add


def _plan(tables: list[list[Face]], who: list[list[int]], rules: HazeRules) -> _Plan:
    ends = rules.fumble_ends_complex
    rates = [[r for r, f in t if not (ends and f)] for t in tables]
    rounds = [[rates[i] for i in roll] for roll in who]
    # Face combinations with at least one fumble: all of them less those with none.
    fumbles = [ACTION_DIE ** len(r) - (ACTION_DIE - 1) ** len(r) if ends else 0 for r in who]
    gains = [sum(max(rs) for rs in r) for r in rounds]
    suffix = [sum(gains[i:]) for i in range(len(gains) + 1)]
    return _Plan(rounds=rounds, fumbles=fumbles, suffix=suffix)


def estimate_work(state: ComplexAction, plan: _Plan) -> int:
    """An upper bound on the chain's dictionary updates, from the totals' reachable range."""
    lo = hi = state.total
    work = 0
    for r, rollers in enumerate(plan.rounds):
        lo = max(lo, state.difficulty - plan.suffix[r])
        if lo > hi:
            break
        for rates in rollers:
            work += (hi - lo + 1) * len(rates)
            lo, hi = lo + min(rates), hi + max(rates)
        hi = min(hi, state.difficulty - 1)
    return work


def complex_odds(
    state: ComplexAction,
    participants: Sequence[Participant],
    rules: HazeRules = DEFAULT_RULES,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
) -> ComplexOdds:
    """The exact law of how (and after how many rounds) a complex action ends."""
    if state.over:
        raise ComplexActionOver(f"this complex action has already ended ({state.status})")
    check_participants(participants)
    who, runs_out = schedule(participants, max_rounds, rules)
    plan = _plan([_faces(p, rules) for p in participants], who, rules)
    work = estimate_work(state, plan)
    if work > MAX_WORK:
        raise ComplexOddsTooCostly(
            f"these odds need about {work:,} steps, above the limit of {MAX_WORK:,}: "
            "fewer participants, rounds (max_rounds) or a lower difficulty"
        )
    return _run(state, plan, runs_out, max_rounds)


def _run(state: ComplexAction, plan: _Plan, runs_out: bool, max_rounds: int) -> ComplexOdds:
    live: dict[int, int] = {state.total: 1}
    hopeless = 0
    denominator = 1
    rows: list[RoundOdds] = []
    for r, rollers in enumerate(plan.rounds):
        floor = state.difficulty - plan.suffix[r]
        hopeless += sum(w for t, w in live.items() if t < floor)
        live = {t: w for t, w in live.items() if t >= floor}
        mass = sum(live.values()) + hopeless
        fumbled = mass * plan.fumbles[r]
        for rates in rollers:
            nxt: dict[int, int] = {}
            for t, w in live.items():
                for rate in rates:
                    nxt[t + rate] = nxt.get(t + rate, 0) + w
            live = nxt
            # A hopeless total stays hopeless; only its weight follows the non-fumbles.
            hopeless *= len(rates)
            denominator *= ACTION_DIE
        done = sum(w for t, w in live.items() if t >= state.difficulty)
        live = {t: w for t, w in live.items() if t < state.difficulty}
        rows.append(_row(r + 1, done, fumbled, 0, 0, denominator))
    left = sum(live.values()) + hopeless
    if left:
        last = len(plan.rounds)
        ending = rows[-1] if rows else _row(0, 0, 0, 0, 0, 1)
        extra = _row(last, 0, 0, left if runs_out else 0, 0 if runs_out else left, denominator)
        merged = _merge(ending, extra)
        rows = [*rows[:-1], merged] if rows else [merged]
    return _odds(rows, max_rounds)


def _row(r: int, done: int, fumbled: int, exhausted: int, given_up: int, d: int) -> RoundOdds:
    parts = [Fraction(x, d) for x in (done, fumbled, exhausted, given_up)]
    return RoundOdds(
        round=r, chance=sum(parts, Fraction(0)), done=parts[0], fumbled=parts[1],
        exhausted=parts[2], given_up=parts[3],
    )  # fmt: skip


def _merge(a: RoundOdds, b: RoundOdds) -> RoundOdds:
    return RoundOdds(
        round=a.round, chance=a.chance + b.chance, done=a.done + b.done,
        fumbled=a.fumbled + b.fumbled, exhausted=a.exhausted + b.exhausted,
        given_up=a.given_up + b.given_up,
    )  # fmt: skip


def _odds(rows: list[RoundOdds], max_rounds: int) -> ComplexOdds:
    kept = [row for row in rows if row.chance]
    return ComplexOdds(
        done=sum((row.done for row in kept), Fraction(0)),
        fumbled=sum((row.fumbled for row in kept), Fraction(0)),
        exhausted=sum((row.exhausted for row in kept), Fraction(0)),
        given_up=sum((row.given_up for row in kept), Fraction(0)),
        mean_rounds=sum((row.round * row.chance for row in kept), Fraction(0)),
        max_rounds=max_rounds,
        rounds=kept,
    )
