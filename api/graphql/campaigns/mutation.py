"""GraphQL: campaign mutations — create, tokens, runners, activities, runs, GM adjustments,
cadence, advancing by hand and the end. Each answers its result or a Problem."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import strawberry
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from strawberry.types.unset import UNSET

from api.campaigns import requests as rq
from api.campaigns import usecases
from api.campaigns.access import ARGUMENT, campaigns_of, clock_now, clock_of, grant_of
from api.graphql.campaigns.payloads import (
    CampaignCommandPayload,
    CampaignToken,
    CampaignTokenPayload,
    CreateCampaignPayload,
    CreatedCampaign,
)
from api.graphql.context import Info
from api.graphql.generate import chosen, convert, input_type, one_of_input, plain
from api.graphql.problem import EXPECTED, Problem, as_problem
from api.graphql.scalars import Long
from api.graphql.sessions.payloads import (
    RevocationPayload,
    TableRoleEnum,
    TokenRevocation,
    VisibilityEnum,
)
from api.sessions.access import now, secret_of
from api.sessions.requests import RevokeTokens
from services.campaign.cadence import IntervalCadence, ManualCadence, WeeklyCadence
from services.campaign.rules import CampaignRules
from services.campaign.shown import shown_result
from services.markers import Named
from services.maze.abilities import Ability
from services.maze.effects import Effect
from services.maze.injuries import Injury

M = TypeVar("M", bound=BaseModel)
# Typed inputs from the REST bodies' models: a tagged union is a `@oneOf` input.
CadenceInput: Any = one_of_input(
    "CadenceInput",
    {"manual": ManualCadence, "interval": IntervalCadence, "weekly": WeeklyCadence},
    frozenset({"kind"}),
)
AdjustmentInput: Any = one_of_input(
    "AdjustmentInput",
    {
        "supplies": rq.SuppliesAdjustment,
        "effect": rq.EffectAdjustment,
        "injury": rq.InjuryAdjustment,
    },
    frozenset({"type"}),
)
RulesInput: Any = input_type(CampaignRules)
ActivityEnum: Any = convert(
    Annotated[rq.Choosable, Named("ChoosableActivity")], [], "ChoosableActivity", True
)
RunResultInput: Any = input_type(rq.RunResult)
Id = strawberry.ID


def _fields(**given: Any) -> dict[str, Any]:
    """The arguments given (None means omitted: the model's default applies)."""
    return {k: v for k, v in given.items() if v is not None}


async def _send(
    info: Info,
    id: Id,
    token: str,
    model: type[M],
    fields: Any,
    build: Callable[[M, Any], Any],
    *,
    actor: Callable[[M], str | None] = lambda _: None,
    what: str,
    reschedule: bool = False,
) -> CampaignCommandPayload:
    """Validate `fields` as `model`, then run the command `build` makes, as the token allows."""
    conn = info.context["request"]
    try:
        grant = await grant_of(conn, str(id), token, ARGUMENT)
        body = model.model_validate(fields)
        # A tagged union's body (the adjustment) carries the command fields on its root.
        inner = getattr(body, "root", body)
        result = await run_in_threadpool(
            functools.partial(
                usecases.send,
                campaigns_of(conn),
                grant,
                lambda state: build(body, state),
                actor=actor(body),
                what=what,
                seen_version=getattr(inner, "seen_version", None),
                command_id=getattr(inner, "command_id", None),
                clock=clock_of(conn) if reschedule else None,
            )
        )
    except rq.InvalidCharacter as exc:
        return Problem(code=exc.code, message=exc.message, field="character")
    except EXPECTED as exc:
        return as_problem(exc)
    return shown_result(result)


MazeEffectEnum: Any = convert(Effect, [], "MazeEffect", True)
MazeInjuryEnum: Any = convert(Injury, [], "MazeInjury", True)
MazeAbilityEnum: Any = convert(Ability, [], "MazeAbility", True)


@strawberry.input(description="The die of each ability (6, 8, 10 or 12; one of each).")
class CampaignAbilityDiceInput:
    ready: int | None = UNSET
    interaction: int | None = UNSET
    surroundings: int | None = UNSET
    navigation: int | None = UNSET


@strawberry.input(description="A skill and its modifier.")
class CampaignSkillInput:
    name: str
    modifier: int


@strawberry.input(description="An injury on the sheet.")
class CampaignSheetInjuryInput:
    injury: MazeInjuryEnum
    treated: bool = False


@strawberry.input(
    description="A runner's The Maze character sheet, as `POST /v1/maze/characters/validate` "
    "checks it; `skills` is a list of {name, modifier} (REST: a map)."
)
class CampaignCharacterInput:
    name: str
    abilities: CampaignAbilityDiceInput
    skills: list[CampaignSkillInput] | None = UNSET
    traits: list[str] | None = UNSET
    buddies: list[str] | None = UNSET
    effects: list[MazeEffectEnum] | None = UNSET
    injuries: list[CampaignSheetInjuryInput] | None = UNSET
    checked_this_run: list[MazeAbilityEnum] | None = UNSET
    is_pc: bool | None = UNSET

    def to_dict(self) -> dict[str, Any]:
        """As the REST body's `character` (fields given; abilities named; skills a map)."""
        out: dict[str, Any] = {k: v for k, v in plain(self).items() if v is not None}
        out["abilities"] = {k: v for k, v in out["abilities"].items() if v is not None}
        if "skills" in out:
            out["skills"] = {skill["name"]: skill["modifier"] for skill in out["skills"]}
        return out


@strawberry.type
class CampaignMutation:
    @strawberry.mutation(
        description="Start a campaign: `cadence` (one of {manual: true}, {interval: {...}}, "
        "{weekly: {...}}), rule overrides and starting supplies are optional. The GM and "
        "spectator tokens come back."
    )
    async def create_campaign(
        self,
        info: Info,
        name: str,
        cadence: CadenceInput | None = None,
        rules: RulesInput | None = None,
        supplies: Long | None = None,
        token_ttl_seconds: Long | None = None,
    ) -> CreateCampaignPayload:
        conn = info.context["request"]
        try:
            request = rq.CreateCampaign.model_validate(
                _fields(
                    name=name,
                    cadence=None if cadence is None else chosen(cadence, "kind"),
                    rules=None if rules is None else plain(rules),
                    supplies=supplies,
                    token_ttl_seconds=token_ttl_seconds,
                )
            )
            created = await run_in_threadpool(
                usecases.create,
                campaigns_of(conn),
                clock_of(conn),
                request,
                secret_of(conn),
                now(),
                clock_now(),
            )
        except EXPECTED as exc:
            return as_problem(exc)
        return CreatedCampaign.from_domain(created)

    @strawberry.mutation(description="GM: a token for a player (bound to `runner`) or spectator.")
    async def issue_campaign_token(
        self,
        info: Info,
        id: Id,
        token: str,
        role: TableRoleEnum,
        runner: str | None = None,
        ttl_seconds: Long | None = None,
    ) -> CampaignTokenPayload:
        conn = info.context["request"]
        try:
            grant = await grant_of(conn, str(id), token, ARGUMENT)
            request = rq.IssueCampaignToken.model_validate(
                _fields(role=plain(role), runner=runner, ttl_seconds=ttl_seconds)
            )
            issued = await run_in_threadpool(
                usecases.issue, campaigns_of(conn), grant, request, secret_of(conn), now()
            )
        except EXPECTED as exc:
            return as_problem(exc)
        return CampaignToken.from_domain(issued, request)

    @strawberry.mutation(
        description="GM: revoke one token (`tokenId`), a runner's, a role's, or (none named) "
        "every token of the campaign issued until now."
    )
    async def revoke_campaign_tokens(
        self,
        info: Info,
        id: Id,
        token: str,
        token_id: str | None = None,
        runner: str | None = None,
        role: TableRoleEnum | None = None,
    ) -> RevocationPayload:
        conn = info.context["request"]
        try:
            grant = await grant_of(conn, str(id), token, ARGUMENT)
            request = RevokeTokens.model_validate(
                {"token_id": token_id, "member": runner, "role": plain(role)}
            )
            result = await run_in_threadpool(
                usecases.revoke_in_campaign, campaigns_of(conn), grant, request, secret_of(conn)
            )
        except EXPECTED as exc:
            return as_problem(exc)
        return TokenRevocation.from_domain(result)

    @strawberry.mutation(description="GM: a runner joins with a The Maze character sheet.")
    async def add_campaign_runner(
        self,
        info: Info,
        id: Id,
        token: str,
        runner: str,
        character: CampaignCharacterInput,
        command_id: str | None = None,
    ) -> CampaignCommandPayload:
        fields = _fields(runner=runner, character=character.to_dict(), command_id=command_id)
        return await _send(
            info, id, token, rq.AddRunner, fields, lambda b, _: b.to_domain(),
            what="add runners",
        )  # fmt: skip

    @strawberry.mutation(
        description="A roll in the campaign's log: a player as their own runner, the GM as "
        "anyone (`runner` null: the GM's own); `visibility` everyone, gm or whisper (`to`)."
    )
    async def roll_campaign_dice(
        self,
        info: Info,
        id: Id,
        token: str,
        expression: str,
        runner: str | None = None,
        label: str | None = None,
        visibility: VisibilityEnum | None = None,
        to: list[str] | None = None,
        command_id: str | None = None,
    ) -> CampaignCommandPayload:
        fields = _fields(
            runner=runner,
            expression=expression,
            label=label,
            visibility=plain(visibility),
            to=to,
            command_id=command_id,
        )
        return await _send(
            info, id, token, rq.RollDice, fields, lambda b, _: b.to_domain(),
            actor=lambda b: b.runner, what="roll as the GM",
        )  # fmt: skip

    @strawberry.mutation(description="GM: a runner leaves the campaign.")
    async def remove_campaign_runner(
        self,
        info: Info,
        id: Id,
        token: str,
        runner: str,
        reason: str | None = None,
        command_id: str | None = None,
    ) -> CampaignCommandPayload:
        fields = _fields(runner=runner, reason=reason, command_id=command_id)
        return await _send(
            info, id, token, rq.RemoveRunner, fields,
            lambda b, _: b.to_domain(), what="remove runners",
        )  # fmt: skip

    @strawberry.mutation(
        description="A runner's activity for the coming downtime (idle, gather, farm, build, "
        "rest, treat): a player for their own runner only, the GM for anyone."
    )
    async def choose_campaign_activity(
        self,
        info: Info,
        id: Id,
        token: str,
        runner: str,
        activity: ActivityEnum,
        downtime: Long | None = None,
        target_runner: str | None = None,
        target_injury: Annotated[
            str | None,
            strawberry.argument(
                description="treat: the id of the injury to treat (e.g. `i0-1`), from the "
                "target runner's `injuries[].id` in the campaign view — not its name"
            ),
        ] = None,
        cure_poison: bool = False,
        seen_version: Long | None = None,
        command_id: str | None = None,
    ) -> CampaignCommandPayload:
        fields = _fields(
            runner=runner, activity=plain(activity), downtime=downtime, target_runner=target_runner,
            target_injury=target_injury, cure_poison=cure_poison, seen_version=seen_version,
            command_id=command_id,
        )  # fmt: skip
        return await _send(
            info, id, token, rq.ChooseActivity, fields,
            lambda b, state: b.to_domain(state.downtime), actor=lambda b: b.runner,
            what="choose for another runner",
        )  # fmt: skip

    @strawberry.mutation(description="GM: runners leave for the maze (optionally a session's).")
    async def start_campaign_run(
        self,
        info: Info,
        id: Id,
        token: str,
        runners: list[str],
        run: str | None = None,
        session_id: str | None = None,
        command_id: str | None = None,
    ) -> CampaignCommandPayload:
        fields = _fields(runners=runners, run=run, session_id=session_id, command_id=command_id)
        return await _send(
            info, id, token, rq.StartRun, fields, lambda b, _: b.to_domain(),
            what="start runs",
        )  # fmt: skip

    @strawberry.mutation(
        description="GM: a run is over; `results` is [{runner, injuries, effects_gained, "
        "effects_cleared, died}]."
    )
    async def end_campaign_run(
        self,
        info: Info,
        id: Id,
        token: str,
        run: str,
        results: list[RunResultInput] | None = None,
        command_id: str | None = None,
    ) -> CampaignCommandPayload:
        fields = _fields(results=None if results is None else plain(results), command_id=command_id)
        return await _send(
            info, id, token, rq.EndRun, fields, lambda b, _: b.to_domain(run),
            what="end runs",
        )  # fmt: skip

    @strawberry.mutation(
        description="GM: one adjustment — exactly one of {supplies: {delta, reason?}}, "
        "{effect: {runner, effect, present}} or {injury: {runner, injury}}."
    )
    async def adjust_campaign(
        self, info: Info, id: Id, token: str, adjustment: AdjustmentInput
    ) -> CampaignCommandPayload:
        return await _send(
            info, id, token, rq.AdjustmentBody, chosen(adjustment, "type"),
            lambda b, _: b.root.to_domain(), what="adjust the campaign",
        )  # fmt: skip

    @strawberry.mutation(description="GM: when downtimes pass from now on (and reschedule).")
    async def set_campaign_cadence(
        self, info: Info, id: Id, token: str, cadence: CadenceInput, command_id: str | None = None
    ) -> CampaignCommandPayload:
        at = clock_now()
        fields = _fields(cadence=chosen(cadence, "kind"), command_id=command_id)
        return await _send(
            info, id, token, rq.SetCadence, fields,
            lambda b, _: b.to_domain(at), what="set the cadence", reschedule=True,
        )  # fmt: skip

    @strawberry.mutation(
        description="GM: pass downtimes now, through downtime `through` (default: the next one)."
    )
    async def advance_campaign(
        self,
        info: Info,
        id: Id,
        token: str,
        through: Long | None = None,
        seen_version: Long | None = None,
        command_id: str | None = None,
    ) -> CampaignCommandPayload:
        conn = info.context["request"]
        try:
            grant = await grant_of(conn, str(id), token, ARGUMENT)
            fields = _fields(through=through, seen_version=seen_version, command_id=command_id)
            request = rq.Advance.model_validate(fields)
            result = await run_in_threadpool(
                usecases.advance, campaigns_of(conn), clock_of(conn), grant, request, clock_now()
            )
        except EXPECTED as exc:
            return as_problem(exc)
        return shown_result(result)

    @strawberry.mutation(description="GM: the campaign is over (it leaves the schedule).")
    async def end_campaign(
        self,
        info: Info,
        id: Id,
        token: str,
        reason: str | None = None,
        command_id: str | None = None,
    ) -> CampaignCommandPayload:
        return await _send(
            info, id, token, rq.EndCampaign, _fields(reason=reason, command_id=command_id),
            lambda b, _: b.to_domain(), what="end the campaign", reschedule=True,
        )  # fmt: skip
