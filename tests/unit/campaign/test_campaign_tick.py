"""The tick: supplies, activities, hunger, thirst, exhaustion and damage, on a seeded table."""

from __future__ import annotations

from services.campaign import commands as cmd
from services.campaign.rules import avoidance_dc
from services.maze.bands import BandName
from services.maze.effects import Effect
from services.maze.injuries import Injury
from tests.unit.campaign.play import HOPELESS, SURE, Table, record, rules, steady


def test_supplies_deplete_with_inaction_by_upkeep_and_decay() -> None:
    table = Table(supplies=50)
    table.add("a")
    table.add("b")
    tick = table.tick()
    assert (tick.supplies_eaten, tick.supplies_decayed, tick.supplies_gained) == (2, 2, 0)
    assert tick.supplies_after == table.state.supplies == 46


def test_any_productive_activity_stops_the_decay_even_when_it_fails() -> None:
    table = Table(supplies=50)
    table.add("a", steady("a", Scavenge=HOPELESS))
    table.add("b")
    table.choose("a", "gather")
    tick = table.tick()
    assert record(tick, "a").yielded == 0
    assert tick.supplies_decayed == 0
    assert tick.supplies_after == 48


def test_a_living_farmer_in_the_clearing_relieves_the_decay() -> None:
    table = Table(supplies=50)
    table.add("f", steady("f", traits=["Farmer"]))
    assert table.tick().supplies_decayed == 1


def test_a_hermit_forages_alone_and_eats_nothing_from_the_stores() -> None:
    table = Table(supplies=50)
    table.add("h", steady("h", traits=["Hermit"]))
    table.add("b")
    assert table.tick().supplies_eaten == 1


def test_supplies_never_fall_below_zero_nor_rise_above_the_maximum() -> None:
    low = Table(supplies=1)
    low.add("a")
    assert low.tick().supplies_after == 0
    high = Table(supplies=99)
    high.add("a")
    high.choose("a", "gather")
    assert high.tick().supplies_after == 100


def test_the_avoidance_dc_rises_as_supplies_fall() -> None:
    r = rules()
    assert [avoidance_dc(r, s) for s in (100, 60, 59, 54, 53, 30, 6, 0)] == [
        0, 0, 1, 1, 2, 5, 9, 10,
    ]  # fmt: skip
    assert avoidance_dc(rules(avoid_threshold=30, avoid_step=1), 0) == 30


def test_a_starving_clearing_brings_hunger_thirst_and_exhaustion() -> None:
    table = Table(supplies=0)
    table.add("a", steady("a", Survival=HOPELESS, Hardy=HOPELESS))
    tick = table.tick()
    mine = record(tick, "a")
    assert [(a.effect, a.check.dc, a.gained) for a in mine.avoidance] == [
        (Effect.HUNGER, 10, True),
        (Effect.THIRST, 10, True),
        (Effect.EXHAUSTION, 10, True),
    ]
    assert mine.effects_gained == {Effect.HUNGER, Effect.THIRST, Effect.EXHAUSTION}
    assert table.state.runners[0].effects == mine.after.effects
    # Failed checks award adversity tokens (catastrophic failures: 2 each).
    assert mine.tokens_awarded == 6 == table.state.runners[0].tokens


def test_a_well_stocked_clearing_rolls_nothing_to_avoid() -> None:
    table = Table(supplies=80)
    table.add("a", steady("a", Survival=HOPELESS, Hardy=HOPELESS))
    assert record(table.tick(), "a").avoidance == ()


def test_a_fed_clearing_ends_hunger_and_thirst_before_they_hurt() -> None:
    table = Table(supplies=80)
    table.add("a")
    table.do(cmd.SetEffect(runner="a", effect=Effect.HUNGER, present=True))
    table.do(cmd.SetEffect(runner="a", effect=Effect.THIRST, present=True))
    mine = record(table.tick(), "a")
    assert mine.effects_lost == {Effect.HUNGER, Effect.THIRST}
    assert mine.damage == ()


def test_hunger_below_the_fed_line_calls_for_a_damage_roll_that_can_injure() -> None:
    table = Table(supplies=20)
    table.add("a", steady("a", Hardy=HOPELESS))
    table.do(cmd.SetEffect(runner="a", effect=Effect.HUNGER, present=True))
    mine = record(table.tick(), "a")
    (roll,) = mine.damage
    assert roll.effect is Effect.HUNGER
    assert roll.injury is Injury.FATAL and roll.injury_id == "i0-1"
    assert [(i.id, i.injury, i.treated) for i in mine.after.injuries] == [
        ("i0-1", Injury.FATAL, False)
    ]
    assert mine.after.injuries[0].untreated_for == 0  # gained this tick: waits from the next


def test_a_scratch_from_a_damage_roll_leaves_no_injury() -> None:
    table = Table(supplies=20)
    table.add("a", steady("a", Hardy=SURE))
    table.do(cmd.SetEffect(runner="a", effect=Effect.THIRST, present=True))
    mine = record(table.tick(), "a")
    assert mine.damage[0].injury is Injury.SCRATCH and mine.damage[0].injury_id is None
    assert mine.after.injuries == ()


def test_poison_repeats_damage_rolls_every_downtime_until_cured() -> None:
    table = Table(supplies=80)
    table.add("a", steady("a", Hardy=SURE))
    table.do(cmd.SetEffect(runner="a", effect=Effect.POISON, present=True))
    rolls = [record(table.tick(), "a").damage for _ in range(3)]
    assert [[r.effect for r in d] for d in rolls] == [[Effect.POISON]] * 3


def test_rest_clears_exhaustion_and_skips_its_roll() -> None:
    table = Table(supplies=0)
    table.add("a", steady("a", Hardy=HOPELESS))
    table.do(cmd.SetEffect(runner="a", effect=Effect.EXHAUSTION, present=True))
    table.choose("a", "rest")
    mine = record(table.tick(), "a")
    assert Effect.EXHAUSTION in mine.effects_lost
    assert Effect.EXHAUSTION not in mine.after.effects
    assert [a.effect for a in mine.avoidance] == [Effect.HUNGER, Effect.THIRST]


def test_a_farmer_farms_more_and_an_architect_builds_more() -> None:
    table = Table(supplies=20)
    table.add("plain")
    table.add("farmer", steady("farmer", traits=["Farmer"]))
    table.add("architect", steady("architect", traits=["Architect"]))
    table.choose("plain", "farm")
    table.choose("farmer", "farm")
    table.choose("architect", "build")
    tick = table.tick()
    # +20 against DC 8 is always 9 or more over: an incredible success, 6 supplies.
    assert record(tick, "plain").check.band is BandName.INCREDIBLE_SUCCESS  # type: ignore[union-attr]
    assert [record(tick, r).yielded for r in ("plain", "farmer", "architect")] == [6, 8, 8]
    assert tick.supplies_gained == 22 and tick.supplies_after == 20 + 22 - 3


def test_an_architect_shelters_the_clearing_from_exhaustion() -> None:
    table = Table(supplies=0)
    table.add("arch", steady("arch", traits=["Architect"]))
    table.add("a")
    mine = record(table.tick(), "a")
    assert {a.effect: a.check.dc for a in mine.avoidance}[Effect.EXHAUSTION] == 8


def test_runners_on_a_run_eat_nothing_from_the_clearing() -> None:
    table = Table(supplies=50)
    table.add("a")
    table.add("b")
    table.do(cmd.StartRun(run="r1", runners=("a",)))
    tick = table.tick()
    assert [t.runner for t in tick.runners] == ["b"] and tick.supplies_eaten == 1


def test_the_last_downtime_of_the_season_says_so() -> None:
    table = Table(rules=rules(season_downtimes=2))
    assert not table.tick().season_over
    assert table.tick().season_over
    assert table.state.season_over
