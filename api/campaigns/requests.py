"""Request bodies of the campaign endpoints (REST and GraphQL share them), with their limits."""

from __future__ import annotations

import uuid
from typing import Annotated, Literal

from pydantic import Field, RootModel, field_validator, model_validator

from api.models import Frozen, RollLabel, ShownName
from api.tables.tokens import DEFAULT_TTL_SECONDS, TokenTtl
from services.campaign import commands as cmd
from services.campaign.cadence import Cadence, ManualCadence
from services.campaign.model import Activity
from services.campaign.rules import CampaignRules
from services.labyrinth.commands import Visibility
from services.labyrinth.shown import TableRole
from services.markers import LongInt, Named
from services.maze import usecases as maze
from services.maze.character import Character, Issue
from services.maze.effects import Effect
from services.maze.errors import MazeError
from services.maze.injuries import Injury
from services.maze.requests import MazeCharacter

CAMPAIGN_ID = r"^[A-Za-z0-9_-]{1,64}$"
RUNNER_ID = r"^[A-Za-z0-9_.-]{1,64}$"
SESSION_ID = r"^[A-Za-z0-9_-]{1,64}$"
MAX_RUNNERS = 64  # the body's bound; the campaign's own `max_runners` rule is checked too
MAX_DELTA = 1_000_000
MAX_DOWNTIME = 1_000_000
# One request may advance at most this many downtimes (each is an event and its rolls).
MAX_ADVANCE = 100

RunnerId = Annotated[str, Field(pattern=RUNNER_ID, min_length=1, max_length=64)]
RunId = Annotated[str, Field(pattern=CAMPAIGN_ID, min_length=1, max_length=64)]
Reason = Annotated[str, Field(min_length=1, max_length=200)]
# `maze` is set by starting a run, never chosen.
Choosable = Annotated[
    Literal["idle", "gather", "farm", "build", "rest", "treat"], Named("ChoosableActivity")
]


class _Command(Frozen):
    """What every campaign command body may carry: a retry key and the version seen."""

    seen_version: LongInt | None = Field(default=None, ge=0, le=2**62)
    command_id: str | None = Field(default=None, min_length=8, max_length=128)


class CreateCampaign(Frozen):
    """A new campaign: its name, when downtimes pass, rule overrides and starting supplies."""

    name: ShownName
    cadence: Cadence = Field(default_factory=ManualCadence)
    rules: CampaignRules | None = None
    supplies: int | None = Field(default=None, ge=0, le=MAX_DELTA)
    # How long the GM and spectator tokens last; the GM renews theirs (IssueCampaignToken).
    token_ttl_seconds: TokenTtl = DEFAULT_TTL_SECONDS

    def to_domain(self, at: float) -> cmd.CreateCampaign:
        """The domain command, created at `at` (POSIX seconds)."""
        return cmd.CreateCampaign(
            name=self.name,
            rules=self.rules if self.rules is not None else CampaignRules(),
            cadence=self.cadence,
            supplies=self.supplies,
            at=at,
        )


class IssueCampaignToken(Frozen):
    """GM: a token for a player (bound to `runner`), a spectator, or the GM (renewal).

    A season runs for months: the GM renews their own token before it expires, and
    tokens last up to 30 days.
    """

    role: TableRole
    runner: RunnerId | None = None
    ttl_seconds: TokenTtl = DEFAULT_TTL_SECONDS

    @model_validator(mode="after")
    def _runner_for_players(self) -> IssueCampaignToken:
        if (self.role == "player") != (self.runner is not None):
            raise ValueError("a player token needs `runner`; GM and spectator tokens take none")
        return self


class InvalidCharacter(MazeError):
    """A sheet The Maze's rules refuse: `code` is the first issue's, `issues` lists them all.

    The issues are those `POST /v1/maze/characters/validate` lists for the same sheet.
    """

    def __init__(self, issues: list[Issue]) -> None:
        listed = "; ".join(f"{i.code}: {i.message}" for i in issues)
        super().__init__(f"the character breaks The Maze's rules ({listed})", code=issues[0].code)
        self.issues = issues
        # As /v1/maze/characters/validate lists them: every rule the sheet breaks.
        self.title = "Character sheet refused"
        self.problem_fields = {"issues": [i.model_dump() for i in issues]}
        self.field = "character"


def check_character(character: Character) -> Character:
    """`character` if The Maze's rules accept it (the maze API's validation), else refused."""
    issues = maze.validate_sheet(character)
    if issues:
        raise InvalidCharacter(issues)
    return character


class AddRunner(_Command):
    """GM: a runner joins the clearing with a The Maze character sheet."""

    runner: RunnerId
    character: MazeCharacter = Field(
        description="A The Maze sheet as POST /v1/maze/characters/validate takes and checks "
        "it: one each of d12, d10, d8 and d6 for the four abilities, known skills (a list "
        "of {name, modifier}) and traits (a sheet it refuses is 422 with the first issue's "
        "code)."
    )

    def to_domain(self) -> cmd.AddRunner:
        """The domain command, for a sheet The Maze's rules accept (InvalidCharacter else)."""
        sheet = check_character(self.character.sheet())
        return cmd.AddRunner(runner=self.runner, character=sheet)


class RemoveRunner(_Command):
    """GM: a runner leaves the campaign."""

    runner: RunnerId
    reason: Reason = "removed_by_gm"

    def to_domain(self) -> cmd.RemoveRunner:
        """The domain command."""
        return cmd.RemoveRunner(runner=self.runner, reason=self.reason)


class RollDice(_Command):
    """A roll at the table (the roll log): a player for their own runner (`runner` may be
    left out), the GM for anyone (`runner` null: the GM's own roll)."""

    runner: RunnerId | None = None
    expression: str = Field(min_length=1, max_length=200)
    label: RollLabel | None = None
    visibility: Visibility = "everyone"
    to: list[RunnerId] = Field(default=[], max_length=16)

    def to_domain(self) -> cmd.RollDice:
        """The domain command."""
        return cmd.RollDice(
            by=self.runner,
            expression=self.expression,
            label=self.label,
            visibility=self.visibility,
            to=tuple(self.to),
        )


class ChooseActivity(_Command):
    """What a runner does in the coming downtime (default: the campaign's current one)."""

    runner: RunnerId
    activity: Choosable
    downtime: LongInt | None = Field(default=None, ge=0, le=MAX_DOWNTIME)
    target_runner: RunnerId | None = None
    target_injury: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="treat: the id of the injury to treat (e.g. `i0-1`), from the target "
        "runner's `injuries[].id` in the campaign view — not the injury's name",
    )
    cure_poison: bool = False

    def to_domain(self, downtime: int) -> cmd.ChooseActivity:
        """The domain command, for `downtime` when the body names none."""
        return cmd.ChooseActivity(
            runner=self.runner,
            downtime=self.downtime if self.downtime is not None else downtime,
            activity=Activity(self.activity),
            target_runner=self.target_runner,
            target_injury=self.target_injury,
            cure_poison=self.cure_poison,
        )


class StartRun(_Command):
    """GM: some runners leave for the maze (optionally linked to a labyrinth session)."""

    run: RunId | None = None
    runners: list[RunnerId] = Field(min_length=1, max_length=MAX_RUNNERS)
    session_id: str | None = Field(default=None, pattern=SESSION_ID)

    @field_validator("runners")
    @classmethod
    def _distinct(cls, runners: list[str]) -> list[str]:
        if len(set(runners)) != len(runners):
            raise ValueError("each runner at most once")
        return runners

    def to_domain(self) -> cmd.StartRun:
        """The domain command (a fresh run id when the body names none)."""
        return cmd.StartRun(
            run=self.run or uuid.uuid4().hex[:16],
            runners=tuple(self.runners),
            session_id=self.session_id,
        )


class RunResult(Frozen):
    """What one runner brought back from the maze."""

    runner: RunnerId
    injuries: list[Injury] = Field(default=[], max_length=20)
    effects_gained: list[Effect] = Field(default=[], max_length=len(Effect))
    effects_cleared: list[Effect] = Field(default=[], max_length=len(Effect))
    died: bool = False

    def to_domain(self) -> cmd.RunResult:
        """The domain result."""
        return cmd.RunResult(
            runner=self.runner,
            injuries=tuple(self.injuries),
            effects_gained=frozenset(self.effects_gained),
            effects_cleared=frozenset(self.effects_cleared),
            died=self.died,
        )


class EndRun(_Command):
    """GM: a run is over; each runner's injuries and effects from it."""

    results: list[RunResult] = Field(default=[], max_length=MAX_RUNNERS)

    def to_domain(self, run: str) -> cmd.EndRun:
        """The domain command for `run` (from the path)."""
        return cmd.EndRun(run=run, results=tuple(r.to_domain() for r in self.results))


class SuppliesAdjustment(_Command):
    """GM: add (or, negative, take) supplies; the reason is shown to the GM only."""

    type: Literal["supplies"]
    delta: int = Field(ge=-MAX_DELTA, le=MAX_DELTA)
    reason: str = Field(default="", max_length=200)

    def to_domain(self) -> cmd.Command:
        """The domain command."""
        return cmd.AdjustSupplies(delta=self.delta, reason=self.reason)


class EffectAdjustment(_Command):
    """GM: give a runner an effect or take it away."""

    type: Literal["effect"]
    runner: RunnerId
    effect: Effect
    present: bool = True

    def to_domain(self) -> cmd.Command:
        """The domain command."""
        return cmd.SetEffect(runner=self.runner, effect=self.effect, present=self.present)


class InjuryAdjustment(_Command):
    """GM: record an (untreated) injury on a runner."""

    type: Literal["injury"]
    runner: RunnerId
    injury: Injury

    def to_domain(self) -> cmd.Command:
        """The domain command."""
        return cmd.RecordInjury(runner=self.runner, injury=self.injury)


Adjustment = Annotated[
    SuppliesAdjustment | EffectAdjustment | InjuryAdjustment, Field(discriminator="type")
]


class AdjustmentBody(RootModel[Adjustment]):
    """The body of POST /v1/campaigns/{id}/adjustments: one adjustment tagged by `type`."""


class SetCadence(_Command):
    """GM: when downtimes pass from now on (the schedule restarts from now)."""

    cadence: Cadence

    def to_domain(self, at: float) -> cmd.SetCadence:
        """The domain command, set at `at` (POSIX seconds)."""
        return cmd.SetCadence(cadence=self.cadence, at=at)


class Advance(_Command):
    """GM: pass downtimes by hand, up to downtime `through` (default: the next one).

    With `command_id`, a retry passes nothing more: it answers the first attempt's
    downtimes (`duplicate: true`), even for `advance {}`.
    """

    through: LongInt | None = Field(default=None, ge=1, le=MAX_DOWNTIME)


class EndCampaign(_Command):
    """GM: the campaign is over (no more downtimes, no more commands)."""

    reason: Reason = "ended_by_gm"

    def to_domain(self) -> cmd.EndCampaign:
        """The domain command."""
        return cmd.EndCampaign(reason=self.reason)
