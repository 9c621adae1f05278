"""Buddy in a campaign: "If one partner dies, becomes incapacitated, or if a falling out
occurs, character loses this trait." (the-maze.txt, BUDDY)"""

from __future__ import annotations

from services.campaign import commands as cmd
from services.campaign.events import BuddyLost, DowntimePassed
from services.campaign.evolve import evolve
from services.campaign.state import initial
from services.maze.injuries import Injury
from tests.unit.campaign.play import Table, steady


def buddies(table: Table, *names: str) -> None:
    """Runners bonded as Buddies with each other (Party, the parent trait, held)."""
    for name in names:
        others = [n for n in names if n != name]
        sheet = steady(name, traits=["Party", "Buddy"]).model_copy(update={"buddies": others})
        table.add(name, sheet)


def traits(table: Table, runner: str) -> tuple[list[str], list[str]]:
    found = table.state.runner(runner)
    assert found is not None
    return found.character.traits, found.character.buddies


def test_a_partner_who_dies_in_the_maze_ends_buddy_for_both() -> None:
    table = Table()
    buddies(table, "ana", "bo")
    table.add("cy")
    table.do(cmd.StartRun(run="r1", runners=("ana", "cy")))
    events = table.do(cmd.EndRun(run="r1", results=(cmd.RunResult(runner="ana", died=True),)))
    assert events[1:] == [BuddyLost(partner="ana", runners=("ana", "bo"))]
    assert traits(table, "bo") == (["Party"], [])
    assert traits(table, "ana") == (["Party"], [])
    assert traits(table, "cy") == ([], [])


def test_a_survived_run_keeps_the_buddies() -> None:
    table = Table()
    buddies(table, "ana", "bo")
    table.do(cmd.StartRun(run="r1", runners=("ana",)))
    events = table.do(cmd.EndRun(run="r1", results=(cmd.RunResult(runner="ana"),)))
    assert len(events) == 1
    assert traits(table, "bo") == (["Party", "Buddy"], ["ana"])


def test_in_a_trio_every_buddy_of_the_dead_loses_the_trait_as_the_text_says() -> None:
    table = Table()
    buddies(table, "ana", "bo", "cy")
    table.do(cmd.StartRun(run="r1", runners=("ana",)))
    table.do(cmd.EndRun(run="r1", results=(cmd.RunResult(runner="ana", died=True),)))
    # "character loses this trait": read literally, even bo and cy, still two, lose it.
    assert traits(table, "bo") == (["Party"], [])
    assert traits(table, "cy") == (["Party"], [])


def test_a_partner_killed_by_an_untreated_fatal_injury_ends_buddy_at_that_tick() -> None:
    table = Table()
    buddies(table, "ana", "bo")
    table.do(cmd.RecordInjury(runner="ana", injury=Injury.FATAL))
    for _ in range(table.state.rules.fatal_deadline + 1):
        before = len(table.events)
        table.tick()
        died = [
            t for e in table.events[before:] if isinstance(e, DowntimePassed) for t in e.runners
        ]
        if any(t.died for t in died):
            break
    assert isinstance(table.events[-1], BuddyLost)
    assert traits(table, "bo") == (["Party"], [])


def test_replaying_the_events_gives_the_same_sheets() -> None:
    table = Table()
    buddies(table, "ana", "bo")
    table.do(cmd.StartRun(run="r1", runners=("ana",)))
    table.do(cmd.EndRun(run="r1", results=(cmd.RunResult(runner="ana", died=True),)))
    state = initial()
    for event in table.events:
        state = evolve(state, event)
    assert state == table.state
