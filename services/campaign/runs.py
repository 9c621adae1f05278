"""Validation and results of the runner-facing commands: choosing activities, ending runs."""

from __future__ import annotations

from services.campaign import commands as cmd
from services.campaign import errors as err
from services.campaign.errors import CampaignError, enum_of
from services.campaign.events import RunEnded, RunnerAfter
from services.campaign.model import CHOOSABLE, Activity, CampaignInjury, Choice, Runner
from services.campaign.state import CampaignState
from services.maze.effects import Effect
from services.maze.injuries import Injury, needs_treatment

DIED_IN_MAZE = "died in the maze"
ACTIVITIES = frozenset(a.value for a in Activity)


def _refuse(code: str, message: str) -> CampaignError:
    return CampaignError(message, code=code)


def choose_activity(state: CampaignState, runner: Runner, command: cmd.ChooseActivity) -> Choice:
    """The choice a ChooseActivity makes, checked against the runner and its target."""
    if runner.on_run is not None:
        raise _refuse(err.RUNNER_ON_RUN, f"{runner.id!r} is in the maze")
    if command.downtime != state.downtime:
        raise _refuse(
            err.WRONG_DOWNTIME,
            f"activities are chosen for downtime {state.downtime}, not {command.downtime}",
        )
    activity = Activity(command.activity) if command.activity in ACTIVITIES else None
    if activity not in CHOOSABLE:
        raise _refuse(err.INVALID_ACTIVITY, "choose idle, gather, farm, build, rest or treat")
    if activity is not Activity.TREAT:
        if command.target_runner or command.target_injury or command.cure_poison:
            raise _refuse(err.INVALID_TARGET, "only treatment takes a target")
        return Choice(activity=Activity(command.activity))
    return _treatment(state, runner, command)


def _treatment(state: CampaignState, runner: Runner, command: cmd.ChooseActivity) -> Choice:
    target_id = command.target_runner or runner.id
    target = state.runner(target_id)
    if target is None or not target.in_clearing:
        raise _refuse(err.INVALID_TARGET, f"{target_id!r} is not in the clearing to be treated")
    if command.cure_poison:
        if command.target_injury is not None:
            raise _refuse(
                err.INVALID_TARGET, "a treatment cures the poison or treats one injury, not both"
            )
        if Effect.POISON not in target.effects:
            raise _refuse(err.INVALID_TARGET, f"{target_id!r} has no poison to cure")
    else:
        if command.target_injury is None:
            raise _refuse(err.INVALID_TARGET, "name the injury to treat (or cure the poison)")
        injury = target.injury(command.target_injury)
        if injury is None:
            raise _refuse(
                err.UNKNOWN_INJURY,
                f"{target_id!r} has no injury with the id {command.target_injury!r} (injury "
                "ids, such as 'i0-1', are the runner's `injuries[].id` in the campaign view)",
            )
        if not injury.waiting:
            raise _refuse(err.INVALID_TARGET, f"injury {injury.id!r} needs no treatment")
        if target_id == runner.id and injury.injury is Injury.FATAL:
            raise _refuse(
                err.SELF_TREATMENT_OF_FATAL,
                "treatment may be performed on oneself except for a Fatal injury",
            )
    return Choice(
        activity=Activity.TREAT,
        target_runner=target_id,
        target_injury=command.target_injury,
        cure_poison=command.cure_poison,
    )


def end_run(state: CampaignState, command: cmd.EndRun) -> RunEnded:
    """The runners' fields after a run: its injuries and effects; Contentment wears off."""
    run = state.run(command.run)
    if run is None:
        raise _refuse(err.UNKNOWN_RUN, f"unknown run {command.run!r}")
    if run.ended is not None:
        raise _refuse(err.RUN_ENDED, f"run {command.run!r} has ended")
    results = {r.runner: r for r in command.results}
    if len(results) != len(command.results) or not set(results) <= set(run.runners):
        raise _refuse(err.INVALID_TARGET, "one result per runner of this run, at most")
    out = []
    for runner_id in run.runners:
        runner = state.runner(runner_id)
        assert runner is not None  # a runner on a run cannot be removed
        out.append(_after(runner, results.get(runner_id), state.downtime))
    return RunEnded(run=run.id, downtime=state.downtime, results=tuple(out))


def _after(runner: Runner, result: cmd.RunResult | None, downtime: int) -> RunnerAfter:
    effects = set(runner.effects)
    injuries = list(runner.injuries)
    died = False
    if result is not None:
        effects |= {enum_of(Effect, e) for e in result.effects_gained}
        effects -= {enum_of(Effect, e) for e in result.effects_cleared}
        prefix = f"i{downtime}-"
        taken = sum(1 for i in runner.injuries if i.id.startswith(prefix))
        for injury in (enum_of(Injury, i) for i in result.injuries):
            if needs_treatment(injury):  # a Scratch leaves nothing to treat
                taken += 1
                injuries.append(CampaignInjury(id=f"{prefix}{taken}", injury=injury))
        died = result.died
    # "This wears off after one run."
    effects.discard(Effect.CONTENTMENT)
    return RunnerAfter(
        runner=runner.id,
        effects=frozenset(effects),
        injuries=tuple(injuries),
        status="dead" if died else runner.status,
        downtimes_since_maze=0,
        tokens=runner.tokens,
        died_at=downtime if died else runner.died_at,
        cause=DIED_IN_MAZE if died else runner.cause,
    )
