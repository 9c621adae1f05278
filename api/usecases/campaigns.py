"""Use cases of The Maze's campaigns: create, role tokens, revocations, runners, rolls,
activities, runs, GM adjustments, cadence, advancing by hand, the end, and the viewer's
view, events and downtimes.

Every row but creation acts with a campaign role token (`Table` CAMPAIGN). Each command
row names what it builds from the campaign's state, who may send it, and whether the
campaign is rescheduled after it (api/campaigns/usecases.py runs it); views and events
are rendered once for the token's viewer, typed for GraphQL (services/campaign/shown.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from pydantic import Field
from strawberry.types.unset import UNSET
from strawberry.utils.str_converters import to_camel_case

from api.campaigns import requests as rq
from api.campaigns import usecases
from api.campaigns.usecases import CAMPAIGNS
from api.graphql.generate import chosen, one_of_input, plain
from api.graphql.inputs import CadenceInput, RulesInput, TableRoleEnum
from api.graphql.scalars import Long
from api.openapi.tables import CampaignToken, CreatedCampaign, Revocation
from api.sessions.requests import RevokeTokens
from api.tables.access import now
from api.tables.kind import MAX_PAGE
from api.usecases.table import BODY_ERRORS, Call, GraphQLKind, Redacted, UseCase, no_store
from api.usecases.tables import (
    CAMPAIGN,
    REVOKE_NOTE,
    TABLE_ERRORS,
    CommandId,
    EventsAfter,
    aissuing,
    alooking,
    apaging,
    issuing,
    looking,
    page_price,
    paging,
    revoking,
)
from services.campaign.shown import (
    CampaignCommandResult,
    CampaignEventPage,
    CampaignTickPage,
    CampaignView,
    shown_look,
    shown_page,
    shown_result,
    shown_ticks,
)

TAG = "campaigns"
READ_ERRORS = (401, 403, 404, 422, 429, 503)
COMMAND = (
    "The answer is the command's events and the campaign's view, both as the token's "
    "viewer may see them. `command_id` makes a retry record nothing twice; `seen_version` "
    "refuses the command (409) if the campaign moved on."
)


def _campaigns(call: Call) -> Any:
    return call.store().campaigns_for(call.tenant)


def _clock(call: Call) -> Any:
    return call.store().clock_for(call.tenant)


def create_campaign(request: rq.CreateCampaign, call: Call) -> CreatedCampaign:
    """Start a campaign; the GM and spectator tokens come back once."""
    secret = call.settings.secret_key_bytes
    created = usecases.create(_campaigns(call), _clock(call), request, secret, now(),
                              time.time())  # fmt: skip
    return CreatedCampaign.model_validate(created)


class TickPage(EventsAfter):
    """A page of a viewer's downtimes after a version."""

    limit: int = Field(default=50, ge=1, le=MAX_PAGE, description="Page size.")


def ticks(request: TickPage, call: Call) -> Redacted:
    """The viewer's downtimes after version `after`, oldest first."""
    page = usecases.ticks(_campaigns(call), call.granted(), request.after, request.limit)
    return Redacted(page, shown_ticks)


def advance(request: rq.Advance, call: Call) -> Redacted:
    """GM: pass downtimes by hand, through `through`."""
    done = usecases.advance(_campaigns(call), _clock(call), call.granted(), request, time.time())
    return Redacted(done, shown_result)


def command(
    what: str,
    build: Callable[[Any, Any], Any],
    *,
    actor: Callable[[Any], str | None] = lambda _: None,
    reschedule: bool = False,
    own_runner: bool = False,
) -> Callable[[Any, Call], Redacted]:
    """The service of a campaign command: `build(request, state)` is the domain command,
    `actor(request)` the runner a player may send it for (None: the GM alone). With
    `own_runner`, a player's request naming no `runner` is for their own."""

    def service(request: Any, call: Call) -> Redacted:
        inner = getattr(request, "root", request)  # a tagged union's body
        if own_runner and inner.runner is None and call.granted().role == "player":
            inner = inner.model_copy(update={"runner": call.granted().member})
        done = usecases.send(
            _campaigns(call),
            call.granted(),
            lambda state: build(inner, state),
            actor=actor(inner),
            what=what,
            seen_version=getattr(inner, "seen_version", None),
            command_id=getattr(inner, "command_id", None),
            request=inner,
            clock=_clock(call) if reschedule else None,
            guard=call.guard,
        )
        return Redacted(done, shown_result)

    return service


class EndRunAt(rq.EndRun):
    """GM: a run (from the path) is over; each runner's injuries and effects from it."""

    run: rq.RunId


# --- GraphQL spellings of the tagged unions and of the character sheet ------------------

AdjustmentInput: Any = one_of_input(
    "AdjustmentInput",
    {
        "supplies": rq.SuppliesAdjustment,
        "effect": rq.EffectAdjustment,
        "injury": rq.InjuryAdjustment,
    },
    frozenset({"type"}),
)


def _given(given: dict[str, Any], **choices: str) -> dict[str, Any]:
    """The arguments given, a `@oneOf` input as the tagged body it stands for."""
    out = {k: plain(v) for k, v in given.items() if v is not None}
    for name, tag in choices.items():
        if name in given and given[name] is not None:
            out[name] = chosen(given[name], tag, to_camel_case(name))
    return out


def _cadence_from_graphql(given: dict[str, Any]) -> dict[str, Any]:
    """The arguments given, a `CadenceInput` as the cadence tagged by `kind`."""
    return _given(given, cadence="kind")


def _adjustment_from_graphql(given: dict[str, Any]) -> dict[str, Any]:
    return chosen(given["adjustment"], "type", "adjustment")


def _revoke_from_graphql(given: dict[str, Any]) -> dict[str, Any]:
    out = _given({k: v for k, v in given.items() if k != "runner"})
    # An empty `runner` is refused as an empty `member` is, not read as "every token".
    return {**out, "member": given["runner"]} if given.get("runner") is not None else out


def _revoke_field(given: dict[str, Any], field: str) -> str:
    """A refused `member` is the GraphQL argument `runner`."""
    return "runner" if field == "member" else field


_CREATE_ARGS = (
    ("name", str, UNSET),
    ("cadence", CadenceInput | None, None),
    ("rules", RulesInput | None, None),
    ("supplies", Long | None, None),
    ("token_ttl_seconds", Long | None, None),
)
_REVOKE_ARGS = (
    ("token_id", str | None, None),
    ("runner", str | None, None),
    ("role", TableRoleEnum | None, None),
)
_CADENCE_ARGS = (("cadence", CadenceInput, UNSET), ("command_id", CommandId, None))
_ADJUST_ARGS = (("adjustment", AdjustmentInput, UNSET),)


_ONE = "/campaigns/{campaign_id}"
_DONE = CampaignCommandResult


def _row(name: str, method: Any, path: str, field: str, request: Any, service: Any,
         summary: str, **extra: Any) -> UseCase:  # fmt: skip
    """A row acting with a campaign token (errors, threadpool and tag as every one's)."""
    extra.setdefault("errors", TABLE_ERRORS)
    extra.setdefault("result", _DONE)
    result = extra.pop("result")
    kind: GraphQLKind = "query" if method == "GET" else "mutation"
    return UseCase(name, method, _ONE + path, kind, field, request, result, service, summary,
                   TAG, table=CAMPAIGN, cpu=True, **extra)  # fmt: skip


ROWS: tuple[UseCase, ...] = (
    UseCase("createCampaign", "POST", "/campaigns", "mutation", "create_campaign",
            rq.CreateCampaign, CreatedCampaign, create_campaign, "Start a campaign", TAG,
            status=201, errors=(*BODY_ERRORS, 503), cpu=True, headers=no_store,
            description="The GM and spectator tokens are shown once. A scheduled cadence "
            "(interval or weekly) puts the campaign on the tick schedule.",
            graphql_args=_CREATE_ARGS, from_graphql=_cadence_from_graphql),
    _row("getCampaign", "GET", "", "campaign", None, looking(CAMPAIGNS, shown_look),
         "This viewer's view of a campaign", result=CampaignView, errors=READ_ERRORS,
         description="Players and spectators see the supplies only as a level.",
         aservice=alooking(CAMPAIGNS, shown_look)),
    _row("issueCampaignToken", "POST", "/tokens", "issue_campaign_token",
         rq.IssueCampaignToken, issuing(CAMPAIGNS, CampaignToken),
         "Issue a player (one runner) or spectator token",
         result=CampaignToken, status=201, headers=no_store,
         aservice=aissuing(CAMPAIGNS, CampaignToken)),
    _row("revokeCampaignTokens", "POST", "/revocations", "revoke_campaign_tokens",
         RevokeTokens, revoking(CAMPAIGNS),
         "Revoke a token, a runner's (`member`), a role's or every token", result=Revocation,
         headers=no_store, description=REVOKE_NOTE + " Removing a runner revokes their tokens.",
         graphql_args=_REVOKE_ARGS, from_graphql=_revoke_from_graphql,
         problem_field=_revoke_field),
    _row("rollCampaignDice", "POST", "/rolls", "roll_campaign_dice", rq.RollDice,
         command("roll as the GM", lambda b, _: b.to_domain(), actor=lambda b: b.runner,
                 own_runner=True),
         "Roll in the table's log (everyone, GM only, or a whisper)", description=COMMAND,
         guarded=True),
    _row("addCampaignRunner", "POST", "/runners", "add_campaign_runner", rq.AddRunner,
         command("add runners", lambda b, _: b.to_domain()),
         "Add a runner with a The Maze character sheet", description=COMMAND, guarded=True),
    # Not guarded: the removal revokes the runner's tokens before it appends, so its own
    # token is checked first (api/campaigns/usecases.py).
    _row("removeCampaignRunner", "DELETE", "/runners/{runner}", "remove_campaign_runner",
         rq.RemoveRunner, command("remove runners", lambda b, _: b.to_domain()),
         "Remove a runner", description=COMMAND),
    _row("chooseCampaignActivity", "POST", "/choices", "choose_campaign_activity",
         rq.ChooseActivity,
         command("choose for another runner", lambda b, state: b.to_domain(state.downtime),
                 actor=lambda b: b.runner),
         "Choose a runner's activity for the coming downtime",
         description="A player only for their own runner; the GM for anyone. " + COMMAND,
         guarded=True),
    _row("startCampaignRun", "POST", "/runs", "start_campaign_run", rq.StartRun,
         command("start runs", lambda b, _: b.to_domain()), "Send runners into the maze",
         description=COMMAND, guarded=True),
    _row("endCampaignRun", "POST", "/runs/{run}/end", "end_campaign_run", EndRunAt,
         command("end runs", lambda b, _: b.to_domain(b.run)),
         "End a run with each runner's results", body=rq.EndRun, description=COMMAND,
         guarded=True),
    _row("adjustCampaign", "POST", "/adjustments", "adjust_campaign", rq.AdjustmentBody,
         command("adjust the campaign", lambda b, _: b.to_domain()),
         "GM adjustment: supplies, an effect or an injury", description=COMMAND,
         graphql_args=_ADJUST_ARGS, from_graphql=_adjustment_from_graphql, guarded=True),
    _row("setCampaignCadence", "PUT", "/cadence", "set_campaign_cadence", rq.SetCadence,
         command("set the cadence", lambda b, _: b.to_domain(time.time()), reschedule=True),
         "Set when downtimes pass (and reschedule)", description=COMMAND,
         graphql_args=_CADENCE_ARGS, from_graphql=_cadence_from_graphql, guarded=True),
    _row("advanceCampaign", "POST", "/advance", "advance_campaign", rq.Advance, advance,
         "Pass downtimes by hand",
         description="GM: every downtime until the counter reaches `through` (default: one "
         "downtime), each recorded once even if the scheduler ticks at the same moment."),
    _row("endCampaign", "POST", "/end", "end_campaign", rq.EndCampaign,
         command("end the campaign", lambda b, _: b.to_domain(), reschedule=True),
         "End the campaign", guarded=True),
    _row("getCampaignTicks", "GET", "/ticks", "campaign_ticks", TickPage, ticks,
         "This viewer's downtime history", result=CampaignTickPage, errors=READ_ERRORS,
         description="`next_after` is the `after` of the next page (null at the end)."),
    _row("getCampaignEvents", "GET", "/events", "campaign_events", EventsAfter,
         paging(CAMPAIGNS, shown_page),
         "This viewer's redacted events", result=CampaignEventPage, errors=READ_ERRORS,
         price=page_price, aservice=apaging(CAMPAIGNS, shown_page)),
)  # fmt: skip
