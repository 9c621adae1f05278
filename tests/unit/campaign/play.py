"""Test helpers: character sheets, a table that records events, replay."""

from __future__ import annotations

from collections.abc import Iterable

from services.campaign import commands as cmd
from services.campaign.codec import decode_event, encode_event
from services.campaign.decide import decide
from services.campaign.events import DowntimePassed, Event, RunnerTick
from services.campaign.evolve import evolve
from services.campaign.rules import CampaignRules
from services.campaign.state import CampaignState, initial
from services.dice import HmacRng, Rng
from services.maze.abilities import Ability, AbilityDie
from services.maze.character import Character

DICE: dict[Ability, AbilityDie] = {
    Ability.READY: 10,
    Ability.INTERACTION: 6,
    Ability.SURROUNDINGS: 12,
    Ability.NAVIGATION: 8,
}
# With +20 every check the clock makes succeeds and every damage roll is a Scratch;
# with −20 they fail (a d12 would have to explode twice to reach the DC).
SURE = 20
HOPELESS = -20
CLOCK_SKILLS = ("Scavenge", "Survival", "Athletics", "Medicine", "Hardy")


def sheet(name: str = "Vex", traits: Iterable[str] = (), **skills: int) -> Character:
    """A character sheet; unnamed clock skills are +0."""
    return Character(name=name, abilities=dict(DICE), skills=skills, traits=list(traits))


def steady(name: str = "Vex", traits: Iterable[str] = (), **skills: int) -> Character:
    """A sheet that passes every clock check unless a skill says otherwise."""
    base = {s: SURE for s in CLOCK_SKILLS}
    return sheet(name, traits, **(base | skills))


class Table:
    """A campaign driven by commands, keeping every event (as the store would)."""

    def __init__(self, seed: str = "campaign", **create: object) -> None:
        self.rng: Rng = HmacRng(seed)
        self.state: CampaignState = initial()
        self.events: list[Event] = []
        options: dict[str, object] = {"name": "Clearing", "at": 1_700_000_000.0}
        options.update(create)
        self.do(cmd.CreateCampaign(**options))  # type: ignore[arg-type]

    def do(self, command: cmd.Command) -> list[Event]:
        """Decide and apply a command; its events."""
        events = decide(self.state, command, self.rng)
        for event in events:
            self.state = evolve(self.state, event)
        self.events.extend(events)
        return events

    def add(self, runner: str, character: Character | None = None) -> None:
        """Add a runner (a steady sheet unless given)."""
        self.do(cmd.AddRunner(runner=runner, character=character or steady(runner)))

    def choose(self, runner: str, activity: str, **target: object) -> None:
        """Choose an activity for the coming downtime."""
        self.do(
            cmd.ChooseActivity(
                runner=runner,
                downtime=self.state.downtime,
                activity=activity,  # type: ignore[arg-type]
                **target,  # type: ignore[arg-type]
            )
        )

    def tick(self) -> DowntimePassed:
        """Pass the next downtime; its event."""
        # A death may be followed by BuddyLost: the tick is the first event.
        event = self.do(cmd.AdvanceDowntime(index=self.state.downtime, at=1_700_000_000.0))[0]
        assert isinstance(event, DowntimePassed)
        return event


def record(event: DowntimePassed, runner: str) -> RunnerTick:
    """One runner's record in a tick."""
    return next(t for t in event.runners if t.runner == runner)


def replay(events: Iterable[Event]) -> CampaignState:
    """The state folded from events, as stored (JSON and back)."""
    state = initial()
    for event in events:
        state = evolve(state, decode_event(*encode_event(event)))
    return state


def rules(**changes: object) -> CampaignRules:
    """Default rules with some changed."""
    return CampaignRules.model_validate(CampaignRules().model_dump() | changes)
