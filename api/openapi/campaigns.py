"""OpenAPI rows of the campaign endpoints (/v1/campaigns)."""

from __future__ import annotations

from api.campaigns.requests import (
    CAMPAIGN_ID,
    RUNNER_ID,
    AddRunner,
    AdjustmentBody,
    Advance,
    ChooseActivity,
    CreateCampaign,
    EndCampaign,
    EndRun,
    IssueCampaignToken,
    RollDice,
    SetCadence,
    StartRun,
)
from api.campaigns.usecases import MAX_PAGE
from api.openapi.spec import BODY_ERRORS, Operation, Param, Schema, with_token
from api.openapi.tables import CampaignToken, CreatedCampaign, JoinCode, Revocation
from api.openapi.tokens import REVOKE_NOTE
from api.sessions.requests import RevokeTokens
from api.tables import CreateJoinCode
from services.campaign.shown import (
    CampaignCommandResult,
    CampaignEventPage,
    CampaignTickPage,
    CampaignView,
)

# A role token refused (401/403), an unknown campaign, runner or run (404), a conflict
# (409: version, an existing runner or run), a refused command (422).
CAMPAIGN_ERRORS = (401, 403, 404, 409, 413, 422, 429, 503)
READ_ERRORS = (401, 403, 404, 422, 429, 503)

CAMPAIGN_ID_PARAM = Param(
    "campaign_id", "path", {"type": "string", "pattern": CAMPAIGN_ID}, "The campaign's id."
)
RUNNER_ID_PARAM = Param(
    "runner_id", "path", {"type": "string", "pattern": RUNNER_ID}, "A runner's id."
)
RUN_ID_PARAM = Param("run_id", "path", {"type": "string", "pattern": CAMPAIGN_ID}, "A run's id.")
AFTER_PARAM = Param(
    "after", "query", {"type": "integer", "minimum": 0, "maximum": 2**62}, "Events after this."
)
LIMIT_PARAM = Param(
    "limit", "query", {"type": "integer", "minimum": 1, "maximum": MAX_PAGE}, "Page size."
)

LOOSE: Schema = {}  # replaced by each row's named `result`

COMMAND = (
    "The answer is the command's events and the campaign's view, both as the token's "
    "viewer may see them. `command_id` makes a retry record nothing twice; `seen_version` "
    "refuses the command (409) if the campaign moved on."
)


_tokened = with_token(
    "/v1/campaigns/{campaign_id}", "campaigns", CAMPAIGN_ERRORS, (CAMPAIGN_ID_PARAM,)
)


def campaign_operations() -> list[Operation]:
    """Campaigns: every call but creation carries a campaign role token."""
    pages = (CAMPAIGN_ID_PARAM, AFTER_PARAM, LIMIT_PARAM)
    done = CampaignCommandResult
    return [
        Operation("post", "/v1/campaigns", "createCampaign", "Start a campaign", "campaigns",
                  CreateCampaign, LOOSE, result=CreatedCampaign, status=201,
                  errors=(*BODY_ERRORS, 503),
                  description="The GM and spectator tokens are shown once. A scheduled "
                  "cadence (interval or weekly) puts the campaign on the tick schedule."),
        _tokened("get", "", "getCampaign", "This viewer's view of a campaign", None,
                 CampaignView, errors=READ_ERRORS,
                 description="Players and spectators see the supplies only as a level."),
        _tokened("post", "/tokens", "issueCampaignToken",
                 "Issue a player (one runner) or spectator token", IssueCampaignToken,
                 CampaignToken, status=201),
        _tokened("post", "/rolls", "rollCampaignDice",
                 "Roll in the table's log (everyone, GM only, or a whisper)", RollDice, done,
                 description=COMMAND),
        _tokened("post", "/join-codes", "createCampaignJoinCode",
                 "A single-use join code for one runner", CreateJoinCode, JoinCode,
                 status=201),
        _tokened("post", "/revocations", "revokeCampaignTokens",
                 "Revoke a token, a runner's (`member`), a role's or every token",
                 RevokeTokens, Revocation,
                 description=REVOKE_NOTE + " Removing a runner revokes their tokens."),
        _tokened("post", "/runners", "addCampaignRunner",
                 "Add a runner with a The Maze character sheet", AddRunner, done,
                 description=COMMAND),
        _tokened("delete", "/runners/{runner_id}", "removeCampaignRunner", "Remove a runner",
                 None, done, params=(CAMPAIGN_ID_PARAM, RUNNER_ID_PARAM)),
        _tokened("post", "/choices", "chooseCampaignActivity",
                 "Choose a runner's activity for the coming downtime", ChooseActivity, done,
                 description="A player only for their own runner; the GM for anyone. "
                 + COMMAND),
        _tokened("post", "/runs", "startCampaignRun", "Send runners into the maze", StartRun,
                 done, description=COMMAND),
        _tokened("post", "/runs/{run_id}/end", "endCampaignRun",
                 "End a run with each runner's results", EndRun, done,
                 params=(CAMPAIGN_ID_PARAM, RUN_ID_PARAM), description=COMMAND),
        _tokened("post", "/adjustments", "adjustCampaign",
                 "GM adjustment: supplies, an effect or an injury", AdjustmentBody, done,
                 description=COMMAND),
        _tokened("put", "/cadence", "setCampaignCadence",
                 "Set when downtimes pass (and reschedule)", SetCadence, done,
                 description=COMMAND),
        _tokened("post", "/advance", "advanceCampaign", "Pass downtimes by hand", Advance,
                 done, description="GM: every downtime until the counter reaches `through` "
                 "(default: one downtime), each recorded once even if the scheduler ticks "
                 "at the same moment."),
        _tokened("post", "/end", "endCampaign", "End the campaign", EndCampaign, done),
        _tokened("get", "/ticks", "getCampaignTicks", "This viewer's downtime history", None,
                 CampaignTickPage, errors=READ_ERRORS, params=pages,
                 description="`next_after` is the `after` of the next page (null at the end)."),
        _tokened("get", "/events", "getCampaignEvents", "This viewer's redacted events", None,
                 CampaignEventPage, errors=READ_ERRORS, params=pages),
    ]  # fmt: skip
