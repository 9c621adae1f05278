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
from api.openapi.spec import BODY_ERRORS, Operation, Param, Schema
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


def campaign_operations() -> list[Operation]:
    """Campaigns: every call but creation carries a campaign role token."""
    one = "/v1/campaigns/{campaign_id}"
    tag, errors = "campaigns", CAMPAIGN_ERRORS
    ids = (CAMPAIGN_ID_PARAM,)
    return [
        Operation(
            "post",
            "/v1/campaigns",
            "createCampaign",
            "Start a campaign",
            tag,
            CreateCampaign,
            LOOSE,
            result=CreatedCampaign,
            status=201,
            errors=(*BODY_ERRORS, 503),
            description="The GM and spectator tokens are shown once. A scheduled "
            "cadence (interval or weekly) puts the campaign on the tick schedule.",
        ),
        Operation(
            "get",
            one,
            "getCampaign",
            "This viewer's view of a campaign",
            tag,
            None,
            LOOSE,
            result=CampaignView,
            errors=READ_ERRORS,
            session_token=True,
            params=ids,
            description="Players and spectators see the supplies only as a level.",
        ),
        Operation(
            "post",
            f"{one}/tokens",
            "issueCampaignToken",
            "Issue a player (one runner) or spectator token",
            tag,
            IssueCampaignToken,
            LOOSE,
            result=CampaignToken,
            status=201,
            errors=errors,
            session_token=True,
            params=ids,
        ),
        Operation(
            "post",
            f"{one}/rolls",
            "rollCampaignDice",
            "Roll in the table's log (everyone, GM only, or a whisper)",
            tag,
            RollDice,
            LOOSE,
            result=CampaignCommandResult,
            errors=errors,
            session_token=True,
            params=ids,
            description=COMMAND,
        ),
        Operation(
            "post",
            f"{one}/join-codes",
            "createCampaignJoinCode",
            "A single-use join code for one runner",
            tag,
            CreateJoinCode,
            LOOSE,
            result=JoinCode,
            status=201,
            errors=errors,
            session_token=True,
            params=ids,
        ),
        Operation(
            "post",
            f"{one}/revocations",
            "revokeCampaignTokens",
            "Revoke a token, a runner's (`member`), a role's or every token",
            tag,
            RevokeTokens,
            LOOSE,
            result=Revocation,
            errors=errors,
            session_token=True,
            params=ids,
            description=REVOKE_NOTE + " Removing a runner revokes their tokens.",
        ),
        Operation(
            "post",
            f"{one}/runners",
            "addCampaignRunner",
            "Add a runner with a The Maze character sheet",
            tag,
            AddRunner,
            LOOSE,
            result=CampaignCommandResult,
            errors=errors,
            session_token=True,
            params=ids,
            description=COMMAND,
        ),
        Operation(
            "delete",
            f"{one}/runners/{{runner_id}}",
            "removeCampaignRunner",
            "Remove a runner",
            tag,
            None,
            LOOSE,
            result=CampaignCommandResult,
            errors=errors,
            session_token=True,
            params=(CAMPAIGN_ID_PARAM, RUNNER_ID_PARAM),
        ),
        Operation(
            "post",
            f"{one}/choices",
            "chooseCampaignActivity",
            "Choose a runner's activity for the coming downtime",
            tag,
            ChooseActivity,
            LOOSE,
            result=CampaignCommandResult,
            errors=errors,
            session_token=True,
            params=ids,
            description="A player only for their own runner; the GM for anyone. " + COMMAND,
        ),
        Operation(
            "post",
            f"{one}/runs",
            "startCampaignRun",
            "Send runners into the maze",
            tag,
            StartRun,
            LOOSE,
            result=CampaignCommandResult,
            errors=errors,
            session_token=True,
            params=ids,
            description=COMMAND,
        ),
        Operation(
            "post",
            f"{one}/runs/{{run_id}}/end",
            "endCampaignRun",
            "End a run with each runner's results",
            tag,
            EndRun,
            LOOSE,
            result=CampaignCommandResult,
            errors=errors,
            session_token=True,
            params=(CAMPAIGN_ID_PARAM, RUN_ID_PARAM),
            description=COMMAND,
        ),
        Operation(
            "post",
            f"{one}/adjustments",
            "adjustCampaign",
            "GM adjustment: supplies, an effect or an injury",
            tag,
            AdjustmentBody,
            LOOSE,
            result=CampaignCommandResult,
            errors=errors,
            session_token=True,
            params=ids,
            description=COMMAND,
        ),
        Operation(
            "put",
            f"{one}/cadence",
            "setCampaignCadence",
            "Set when downtimes pass (and reschedule)",
            tag,
            SetCadence,
            LOOSE,
            result=CampaignCommandResult,
            errors=errors,
            session_token=True,
            params=ids,
            description=COMMAND,
        ),
        Operation(
            "post",
            f"{one}/advance",
            "advanceCampaign",
            "Pass downtimes by hand",
            tag,
            Advance,
            LOOSE,
            result=CampaignCommandResult,
            errors=errors,
            session_token=True,
            params=ids,
            description="GM: every downtime until the counter reaches `through` "
            "(default: one downtime), each recorded once even if the scheduler ticks "
            "at the same moment.",
        ),
        Operation(
            "post",
            f"{one}/end",
            "endCampaign",
            "End the campaign",
            tag,
            EndCampaign,
            LOOSE,
            result=CampaignCommandResult,
            errors=errors,
            session_token=True,
            params=ids,
        ),
        Operation(
            "get",
            f"{one}/ticks",
            "getCampaignTicks",
            "This viewer's downtime history",
            tag,
            None,
            LOOSE,
            result=CampaignTickPage,
            errors=READ_ERRORS,
            session_token=True,
            params=(CAMPAIGN_ID_PARAM, AFTER_PARAM, LIMIT_PARAM),
            description="`next_after` is the `after` of the next page (null at the end).",
        ),
        Operation(
            "get",
            f"{one}/events",
            "getCampaignEvents",
            "This viewer's redacted events",
            tag,
            None,
            LOOSE,
            result=CampaignEventPage,
            errors=READ_ERRORS,
            session_token=True,
            params=(CAMPAIGN_ID_PARAM, AFTER_PARAM, LIMIT_PARAM),
        ),
    ]
