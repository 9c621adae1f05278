"""The tick's care of bodies: injuries that worsen or kill, treatment, contentment."""

from __future__ import annotations

from services.campaign import commands as cmd
from services.maze.bands import BandName
from services.maze.effects import Effect
from services.maze.injuries import Injury
from tests.unit.campaign.play import HOPELESS, Table, record, steady


def test_an_untreated_injury_worsens_a_step_after_worsen_every_downtimes() -> None:
    table = Table(supplies=80)
    table.add("a")
    table.do(cmd.RecordInjury(runner="a", injury=Injury.SUPERFICIAL))
    ticks = [record(table.tick(), "a") for _ in range(4)]
    assert [t.after.injuries[0].untreated_for for t in ticks] == [1, 2, 3, 0]
    assert [t.worsened for t in ticks[:3]] == [(), (), ()]
    (worse,) = ticks[3].worsened
    assert (worse.injury_id, worse.before, worse.after) == (
        "i0-1",
        Injury.SUPERFICIAL,
        Injury.MINOR,
    )
    assert table.state.runners[0].injuries[0].injury is Injury.MINOR


def test_a_treated_injury_never_worsens() -> None:
    table = Table(supplies=80)
    table.add("a")
    table.add("doc")
    table.do(cmd.RecordInjury(runner="a", injury=Injury.SERIOUS))
    table.choose("doc", "treat", target_runner="a", target_injury="i0-1")
    mine = record(table.tick(), "doc")
    assert mine.treated and mine.check is not None and mine.check.skill == "Medicine"
    assert mine.check.dc == 8
    for _ in range(6):
        table.tick()
    injury = table.state.runners[0].injuries[0]
    assert (injury.injury, injury.treated, injury.untreated_for) == (Injury.SERIOUS, True, 0)


def test_an_untreated_fatal_injury_kills_after_the_deadline() -> None:
    table = Table(supplies=80)
    table.add("a")
    table.do(cmd.RecordInjury(runner="a", injury=Injury.FATAL))
    first = record(table.tick(), "a")
    assert not first.died and first.after.status == "alive"
    second = record(table.tick(), "a")
    assert second.died and second.cause == "fatal injury untreated"
    runner = table.state.runners[0]
    assert (runner.status, runner.died_at, runner.cause) == ("dead", 1, "fatal injury untreated")
    assert table.tick().runners == ()  # the dead do nothing


def test_another_runner_can_treat_a_fatal_injury_in_time() -> None:
    table = Table(supplies=80)
    table.add("a")
    table.add("doc")
    table.do(cmd.RecordInjury(runner="a", injury=Injury.FATAL))
    table.tick()
    table.choose("doc", "treat", target_runner="a", target_injury="i0-1")
    assert record(table.tick(), "doc").treated
    assert table.state.runners[0].alive


def test_a_failed_treatment_changes_nothing_but_awards_tokens() -> None:
    table = Table(supplies=80)
    table.add("a")
    table.add("doc", steady("doc", Medicine=HOPELESS))
    table.do(cmd.RecordInjury(runner="a", injury=Injury.GRAVE))
    table.choose("doc", "treat", target_runner="a", target_injury="i0-1")
    mine = record(table.tick(), "doc")
    assert not mine.treated and mine.tokens_awarded > 0
    assert not table.state.runners[0].injuries[0].treated


def test_curing_poison_clears_it() -> None:
    table = Table(supplies=80)
    table.add("a")
    table.do(cmd.SetEffect(runner="a", effect=Effect.POISON, present=True))
    table.choose("a", "treat", cure_poison=True)
    tick = table.tick()
    mine = record(tick, "a")
    assert mine.treated and mine.check is not None and mine.check.dc == 8
    assert Effect.POISON in mine.effects_lost and mine.damage == ()


def test_contentment_comes_after_six_downtimes_outside_the_maze() -> None:
    table = Table(supplies=80)
    table.add("a")
    gained = [Effect.CONTENTMENT in record(table.tick(), "a").effects_gained for _ in range(6)]
    assert gained == [False] * 5 + [True]
    assert table.state.runners[0].downtimes_since_maze == 6


def test_a_hermit_grows_content_sooner() -> None:
    table = Table(supplies=80)
    table.add("h", steady("h", traits=["Hermit"]))
    for _ in range(4):
        table.tick()
    assert Effect.CONTENTMENT in table.state.runners[0].effects


def test_a_content_runner_is_immune_to_hunger_damage_and_avoidance_rolls() -> None:
    table = Table(supplies=0)
    table.add("a", steady("a", Survival=HOPELESS, Hardy=HOPELESS))
    table.do(cmd.SetEffect(runner="a", effect=Effect.CONTENTMENT, present=True))
    table.do(cmd.SetEffect(runner="a", effect=Effect.HUNGER, present=True))
    mine = record(table.tick(), "a")
    assert mine.damage == () and mine.avoidance == ()


def test_a_content_runner_rolls_clearing_checks_normally() -> None:
    # Contentment's automatic Failures are for the first checks of a run.
    table = Table(supplies=50)
    table.add("a")
    table.do(cmd.SetEffect(runner="a", effect=Effect.CONTENTMENT, present=True))
    table.choose("a", "gather")
    assert record(table.tick(), "a").check.band is BandName.INCREDIBLE_SUCCESS  # type: ignore[union-attr]


def test_a_run_wears_contentment_off_and_resets_the_count() -> None:
    table = Table(supplies=80)
    table.add("a")
    for _ in range(6):
        table.tick()
    table.do(cmd.StartRun(run="r1", runners=("a",)))
    assert table.state.runners[0].downtimes_since_maze == 0
    assert table.tick().runners == ()  # away in the maze: no record, no upkeep
    table.do(cmd.EndRun(run="r1"))
    runner = table.state.runners[0]
    assert Effect.CONTENTMENT not in runner.effects and runner.on_run is None
    assert record(table.tick(), "a").after.downtimes_since_maze == 1
