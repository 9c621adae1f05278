"""`evolve(state, event) -> state`: pure and total over every event type; never rolls."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from services.campaign import events as ev
from services.campaign.model import Choice, Runner
from services.campaign.partners import without_buddy
from services.campaign.state import CampaignState


def _apply(runner: Runner, after: ev.RunnerAfter) -> Runner:
    return replace(
        runner,
        effects=after.effects,
        injuries=after.injuries,
        status=after.status,
        downtimes_since_maze=after.downtimes_since_maze,
        tokens=after.tokens,
        died_at=after.died_at,
        cause=after.cause,
    )


def _with_results(state: CampaignState, results: Iterable[ev.RunnerAfter]) -> CampaignState:
    by_id = {a.runner: a for a in results}
    runners = tuple(_apply(r, by_id[r.id]) if r.id in by_id else r for r in state.runners)
    return replace(state, runners=runners)


def _map_runner(
    state: CampaignState, runner_id: str, f: Callable[[Runner], Runner]
) -> CampaignState:
    runners = tuple(f(r) if r.id == runner_id else r for r in state.runners)
    return replace(state, runners=runners)


def _choose(state: CampaignState, runner_id: str, choice: Choice | None) -> CampaignState:
    kept = tuple((r, c) for r, c in state.choices if r != runner_id)
    return replace(state, choices=kept if choice is None else (*kept, (runner_id, choice)))


def evolve(state: CampaignState, event: ev.Event) -> CampaignState:
    """The state after `event`; copies recorded results, never fails on a well-formed history."""
    match event:
        case ev.CampaignCreated():
            return CampaignState(
                created=True,
                name=event.name,
                rules=event.rules,
                cadence=event.cadence,
                anchor=event.anchor,
                base=event.base,
                downtime=event.base,
                supplies=event.supplies,
            )
        case ev.RunnerAdded():
            return replace(state, runners=(*state.runners, event.runner))
        case ev.RunnerRemoved():
            state = _choose(state, event.runner, None)
            return replace(state, runners=tuple(r for r in state.runners if r.id != event.runner))
        case ev.ActivityChosen():
            return _choose(state, event.runner, event.choice)
        case ev.RunStarted():
            run = event.run
            away = set(run.runners)
            runners = tuple(
                replace(r, on_run=run.id, downtimes_since_maze=0) if r.id in away else r
                for r in state.runners
            )
            choices = tuple((r, c) for r, c in state.choices if r not in away)
            return replace(state, runners=runners, runs=(*state.runs, run), choices=choices)
        case ev.RunEnded():
            state = _with_results(state, event.results)
            back = {a.runner for a in event.results}
            runners = tuple(replace(r, on_run=None) if r.id in back else r for r in state.runners)
            runs = tuple(
                replace(r, ended=event.downtime) if r.id == event.run else r for r in state.runs
            )
            return replace(state, runners=runners, runs=runs)
        case ev.SuppliesAdjusted():
            return replace(state, supplies=event.after)
        case ev.EffectSet():
            effect, present = event.effect, event.present
            return _map_runner(
                state,
                event.runner,
                lambda r: replace(
                    r, effects=r.effects | {effect} if present else r.effects - {effect}
                ),
            )
        case ev.InjuryRecorded():
            injury = event.injury
            return _map_runner(
                state, event.runner, lambda r: replace(r, injuries=(*r.injuries, injury))
            )
        case ev.CadenceSet():
            return replace(state, cadence=event.cadence, anchor=event.anchor, base=event.base)
        case ev.DowntimePassed():
            state = _with_results(state, (t.after for t in event.runners))
            return replace(
                state,
                supplies=event.supplies_after,
                downtime=event.index + 1,
                choices=(),
                last_tick_at=event.at,
            )
        case ev.BuddyLost():
            lost = set(event.runners)
            runners = tuple(without_buddy(r) if r.id in lost else r for r in state.runners)
            return replace(state, runners=runners)
        case ev.CampaignEnded():
            return replace(state, ended=True, end_reason=event.reason)
        case ev.DiceRolled():
            return state  # the roll log changes nothing in the clearing
    raise TypeError(f"not a campaign event: {type(event).__name__}")
