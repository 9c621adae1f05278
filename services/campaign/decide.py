"""`decide(state, command, rng) -> events`: validate a command against the state, then act.

A refused command raises a CampaignError (or, for a character sheet the rules cannot
roll with, the maze's MazeError) and produces no events.
"""

from __future__ import annotations

import math

from services.campaign import commands as cmd
from services.campaign import errors as err
from services.campaign.cadence import AnyCadence, IntervalCadence, ManualCadence, WeeklyCadence
from services.campaign.clock import target_downtime
from services.campaign.errors import CampaignError, enum_of
from services.campaign.events import (
    ActivityChosen,
    CadenceSet,
    CampaignCreated,
    CampaignEnded,
    DiceRolled,
    EffectSet,
    Event,
    InjuryRecorded,
    RunnerAdded,
    RunnerRemoved,
    RunStarted,
    SuppliesAdjusted,
)
from services.campaign.model import (
    CampaignInjury,
    Run,
    Runner,
    next_injury_id,
)
from services.campaign.partners import buddies_lost
from services.campaign.runs import choose_activity, end_run
from services.campaign.state import CampaignState
from services.campaign.tick import resolve_downtime
from services.campaign.work import campaign_catalog
from services.dice import TABLE_ROLL_LIMITS, Rng, roll
from services.maze.character import Character
from services.maze.checks import check_for
from services.maze.damage import HARDY
from services.maze.effects import Effect
from services.maze.injuries import Injury


def _refuse(code: str, message: str) -> CampaignError:
    return CampaignError(message, code=code)


def _live(state: CampaignState) -> None:
    if not state.created:
        raise _refuse(err.CAMPAIGN_NOT_FOUND, "no such campaign")
    if state.ended:
        raise _refuse(err.CAMPAIGN_ENDED, "the campaign is over")


def living(state: CampaignState, runner_id: str) -> Runner:
    """A runner who can be acted on: known and alive (else unknown_runner / runner_dead)."""
    runner = state.runner(runner_id)
    if runner is None:
        raise _refuse(err.UNKNOWN_RUNNER, f"unknown runner {runner_id!r}")
    if not runner.alive:
        raise _refuse(err.RUNNER_DEAD, f"{runner_id!r} is dead")
    return runner


def _time(at: float) -> float:
    if not isinstance(at, int | float) or not math.isfinite(at):
        raise _refuse(err.INVALID_CADENCE, "the anchor time must be a finite number of seconds")
    return float(at)


def _cadence(cadence: AnyCadence) -> AnyCadence:
    if not isinstance(cadence, ManualCadence | IntervalCadence | WeeklyCadence):
        raise _refuse(err.INVALID_CADENCE, "a cadence is manual, interval or weekly")
    return cadence


def decide(state: CampaignState, command: cmd.Command, rng: Rng) -> list[Event]:
    """The events a command produces, or a CampaignError with a stable code."""
    if isinstance(command, cmd.CreateCampaign):
        return [_create(state, command)]
    if isinstance(command, cmd.AdvanceDowntime):
        return _advance(state, command, rng)
    _live(state)
    match command:
        case cmd.AddRunner():
            return [_add_runner(state, command)]
        case cmd.RemoveRunner():
            runner = state.runner(command.runner)
            if runner is None:
                raise _refuse(err.UNKNOWN_RUNNER, f"unknown runner {command.runner!r}")
            if runner.on_run is not None:
                raise _refuse(err.RUNNER_ON_RUN, f"{command.runner!r} is in the maze")
            return [RunnerRemoved(runner=command.runner, reason=command.reason)]
        case cmd.ChooseActivity():
            if state.season_over:
                raise _refuse(err.SEASON_OVER, "every downtime of the season has passed")
            choice = choose_activity(state, living(state, command.runner), command)
            return [ActivityChosen(runner=command.runner, downtime=command.downtime, choice=choice)]
        case cmd.StartRun():
            return [_start_run(state, command)]
        case cmd.EndRun():
            ended = end_run(state, command)
            dead = [a.runner for a in ended.results if a.status == "dead"]
            return [ended, *buddies_lost(state, dead)]
        case cmd.AdjustSupplies():
            before = state.supplies
            after = min(state.rules.supplies_max, max(0, before + command.delta))
            return [
                SuppliesAdjusted(
                    delta=command.delta,
                    before=before,
                    after=after,
                    reason=command.reason,
                    supplies_max=state.rules.supplies_max,
                )
            ]
        case cmd.SetEffect():
            living(state, command.runner)
            return [
                EffectSet(
                    runner=command.runner,
                    effect=enum_of(Effect, command.effect),
                    present=command.present,
                )
            ]
        case cmd.RecordInjury():
            runner = living(state, command.runner)
            kind = enum_of(Injury, command.injury)
            injury = CampaignInjury(
                id=next_injury_id(runner, state.downtime),
                injury=kind,
                # A Scratch never waits for treatment.
                treated=kind is Injury.SCRATCH,
            )
            return [InjuryRecorded(runner=command.runner, injury=injury)]
        case cmd.SetCadence():
            at = _time(command.at)
            cadence = _cadence(command.cadence)
            return [CadenceSet(cadence=cadence, anchor=at, base=state.downtime)]
        case cmd.EndCampaign():
            return [CampaignEnded(reason=command.reason, downtime=state.downtime)]
        case cmd.RollDice():
            return [_roll_dice(state, command, rng)]
    raise TypeError(f"not a campaign command: {type(command).__name__}")


VISIBILITIES = ("everyone", "gm", "whisper")


def _roll_dice(state: CampaignState, command: cmd.RollDice, rng: Rng) -> DiceRolled:
    for runner in (*([command.by] if command.by is not None else []), *command.to):
        if state.runner(runner) is None:
            raise _refuse(err.UNKNOWN_RUNNER, f"unknown runner {runner!r}")
    if command.visibility not in VISIBILITIES:
        raise _refuse(err.INVALID_ROLL, f"visibility is one of {', '.join(VISIBILITIES)}")
    if (command.visibility == "whisper") != bool(command.to):
        raise _refuse(err.INVALID_ROLL, "a whisper names the runners it goes to; other rolls none")
    rolled = roll(command.expression, rng, TABLE_ROLL_LIMITS)
    return DiceRolled(
        by=command.by,
        label=command.label,
        visibility=command.visibility,
        to=command.to,
        expression=command.expression,
        faces=tuple(d.face for d in rolled.dice),
        total=rolled.total,
    )


def _create(state: CampaignState, command: cmd.CreateCampaign) -> CampaignCreated:
    if state.created:
        raise _refuse(err.CAMPAIGN_EXISTS, "the campaign exists already")
    rules = command.rules
    catalog = campaign_catalog()
    for skill in rules.skills():
        catalog.skill(skill)  # MazeError(unknown_skill) for a rule naming no skill
    supplies = rules.supplies_start if command.supplies is None else command.supplies
    if not 0 <= supplies <= rules.supplies_max:
        raise _refuse(err.INVALID_SUPPLIES, f"supplies must be within 0..{rules.supplies_max}")
    return CampaignCreated(
        name=command.name,
        rules=rules,
        cadence=_cadence(command.cadence),
        supplies=supplies,
        anchor=_time(command.at),
        base=0,
    )


def _advance(state: CampaignState, command: cmd.AdvanceDowntime, rng: Rng) -> list[Event]:
    if not state.created:
        raise _refuse(err.CAMPAIGN_NOT_FOUND, "no such campaign")
    if command.index < state.downtime:
        return []  # applied already: a duplicate delivery records nothing
    if state.ended:
        raise _refuse(err.CAMPAIGN_ENDED, "the campaign is over")
    if state.season_over:
        raise _refuse(err.SEASON_OVER, "every downtime of the season has passed")
    if command.index > state.downtime:
        raise _refuse(
            err.DOWNTIME_OUT_OF_ORDER,
            f"downtime {command.index} cannot pass before downtime {state.downtime}",
        )
    if command.scheduled and command.index >= target_downtime(state, command.at):
        return []  # not due (any more) by the cadence now in force
    tick = resolve_downtime(state, command.index, _time(command.at), rng)
    return [tick, *buddies_lost(state, (t.runner for t in tick.runners if t.died))]


def check_sheet(character: Character, state: CampaignState) -> None:
    """Refuse a sheet the clock cannot roll with (unknown trait, no die for a skill)."""
    catalog = campaign_catalog()
    for skill in (*state.rules.skills(), HARDY):
        check_for(character, skill, catalog)


def _add_runner(state: CampaignState, command: cmd.AddRunner) -> RunnerAdded:
    if state.runner(command.runner) is not None:
        raise _refuse(err.RUNNER_EXISTS, f"runner {command.runner!r} exists already")
    if state.alive_count() >= state.rules.max_runners:
        raise _refuse(err.TOO_MANY_RUNNERS, f"at most {state.rules.max_runners} runners")
    sheet = command.character
    check_sheet(sheet, state)
    # The campaign tracks effects and injuries itself: they move off the sheet.
    prefix = f"i{state.downtime}-"
    injuries = tuple(
        CampaignInjury(id=f"{prefix}{n + 1}", injury=r.injury, treated=r.treated)
        for n, r in enumerate(sheet.injuries)
    )
    character = sheet.model_copy(
        update={"effects": frozenset(), "injuries": (), "checked_this_run": frozenset()}
    )
    runner = Runner(
        id=command.runner, character=character, effects=sheet.effects, injuries=injuries
    )
    return RunnerAdded(runner=runner)


def _start_run(state: CampaignState, command: cmd.StartRun) -> RunStarted:
    if state.run(command.run) is not None:
        raise _refuse(err.RUN_EXISTS, f"run {command.run!r} exists already")
    if not command.runners or len(set(command.runners)) != len(command.runners):
        raise _refuse(err.INVALID_TARGET, "a run needs runners, each at most once")
    for runner_id in command.runners:
        if living(state, runner_id).on_run is not None:
            raise _refuse(err.RUNNER_ON_RUN, f"{runner_id!r} is in the maze already")
    run = Run(
        id=command.run,
        session_id=command.session_id,
        runners=tuple(command.runners),
        started=state.downtime,
    )
    return RunStarted(run=run)
