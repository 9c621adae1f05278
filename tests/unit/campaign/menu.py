"""Random campaign commands for the property tests: mostly legal, some refused."""

from __future__ import annotations

import random

from services.campaign import commands as cmd
from services.campaign.cadence import IntervalCadence, ManualCadence, WeeklyCadence
from services.campaign.model import Activity
from services.campaign.state import CampaignState
from services.maze.effects import Effect
from services.maze.injuries import Injury
from tests.unit.campaign.play import CLOCK_SKILLS, sheet

TRAITS = ((), ("Farmer",), ("Architect",), ("Hermit",), ("Soldier", "Hermit"))
CADENCES = (
    ManualCadence(),
    IntervalCadence(every_seconds=3600, downtimes_per_tick=2),
    WeeklyCadence(days=("mon", "wed", "fri"), at="20:00", timezone="Europe/Berlin"),
)


def _treat(state: CampaignState, runner: str, r: random.Random) -> cmd.Command:
    targets = [t for t in state.runners if t.in_clearing]
    target = r.choice(targets) if targets else None
    if target is None:
        return cmd.ChooseActivity(runner=runner, downtime=state.downtime, activity=Activity.TREAT)
    waiting = [i.id for i in target.injuries if i.waiting]
    return cmd.ChooseActivity(
        runner=runner,
        downtime=state.downtime,
        activity=Activity.TREAT,
        target_runner=target.id,
        target_injury=r.choice(waiting) if waiting and r.random() < 0.8 else None,
        cure_poison=not waiting or r.random() < 0.2,
    )


def command_for(state: CampaignState, pick: int) -> cmd.Command:
    """A command chosen by `pick` among what could make sense in this state."""
    r = random.Random(pick)
    ids = [x.id for x in state.runners] or ["nobody"]
    runner = r.choice([*ids, "ghost"] if r.random() < 0.05 else ids)
    roll = r.random()
    at = 1_700_000_000.0 + state.downtime * 3600
    if roll < 0.35:
        # The clock: usually the next index, sometimes a duplicate or one too far.
        index = state.downtime + r.choice((0, 0, 0, 0, -1, 1))
        return cmd.AdvanceDowntime(index=index, at=at)
    if roll < 0.45 or len(state.runners) < 2:
        skills = {s: r.randint(-6, 8) for s in CLOCK_SKILLS}
        name = f"r{r.randint(0, 9)}"
        return cmd.AddRunner(runner=name, character=sheet(name, r.choice(TRAITS), **skills))
    if roll < 0.70:
        activity = r.choice([a for a in Activity if a is not Activity.MAZE])
        if activity is Activity.TREAT:
            return _treat(state, runner, r)
        return cmd.ChooseActivity(runner=runner, downtime=state.downtime, activity=activity)
    if roll < 0.75:
        away = tuple(r.sample(ids, k=r.randint(1, len(ids))))
        return cmd.StartRun(run=f"run{r.randint(0, 5)}", runners=away, session_id="s")
    if roll < 0.80 and state.open_runs:
        run = r.choice(state.open_runs)
        results = tuple(
            cmd.RunResult(
                runner=x,
                injuries=tuple(r.sample(list(Injury), k=r.randint(0, 2))),
                effects_gained=frozenset(r.sample(list(Effect), k=r.randint(0, 2))),
                effects_cleared=frozenset(r.sample(list(Effect), k=r.randint(0, 1))),
                died=r.random() < 0.1,
            )
            for x in run.runners
            if r.random() < 0.7
        )
        return cmd.EndRun(run=run.id, results=results)
    if roll < 0.85:
        return cmd.AdjustSupplies(delta=r.randint(-40, 40), reason=f"secret-{pick}")
    if roll < 0.90:
        return cmd.SetEffect(runner=runner, effect=r.choice(list(Effect)), present=r.random() < 0.7)
    if roll < 0.95:
        return cmd.RecordInjury(runner=runner, injury=r.choice(list(Injury)))
    if roll < 0.99:
        return cmd.SetCadence(cadence=r.choice(CADENCES), at=at)
    return cmd.EndCampaign(reason="done")
