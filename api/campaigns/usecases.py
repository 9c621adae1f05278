"""Campaign use cases on the runtime: blocking (Redis), so callers run them in a thread.

Every output goes through the caller's viewer (services/campaign/views.py): the GM sees
everything, players and spectators the table — the supplies only as a level.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel

from api.campaigns.requests import MAX_ADVANCE, Advance, CreateCampaign
from api.problems import InvalidRequest
from api.tables.access import command_fingerprint, scoped_command_id
from api.tables.kind import MAX_PAGE, Kind
from api.tables.revocation import now_ms
from api.tables.tokens import Forbidden, RoleToken
from services.campaign import CampaignState, Viewer, view_event, view_state
from services.campaign.codec import decode_event
from services.campaign.commands import RemoveRunner
from services.campaign.errors import CAMPAIGN_NOT_FOUND, UNKNOWN_RUNNER, CampaignError
from services.dice import SystemRng
from services.store.campaigns import CampaignClock
from services.store.errors import WrongExpectedVersion
from services.store.revocations import Guard, Revocations
from services.store.sessions import Executed, SessionService
from services.store.tables import Tables

# A tick page reads at most this many events looking for ticks (then gives a cursor).
MAX_SCAN = 5000
TICK = "DowntimePassed"

Campaigns = SessionService[CampaignState]


def viewer_of(grant: RoleToken) -> Viewer:
    """The domain's viewer for a token."""
    if grant.role == "gm":
        return Viewer.gm()
    if grant.role == "player" and grant.member is not None:
        return Viewer.player(grant.member)
    return Viewer.spectator()


def not_found() -> CampaignError:
    """No such campaign for this caller's tenant (whether it exists elsewhere is not said)."""
    return CampaignError("no such campaign", code=CAMPAIGN_NOT_FOUND)


def _unknown_runner(runner: str) -> CampaignError:
    return CampaignError(f"unknown runner {runner!r}", code=UNKNOWN_RUNNER)


# Campaign role tokens are role tokens whose subject is `campaign:<id>` and whose member
# is a runner id: a session's and a campaign's can never pass for each other.
CAMPAIGNS: Kind[CampaignState, Viewer] = Kind(
    noun="campaign",
    seat="runner",
    prefix="campaign:",
    service_of=lambda runtime, tenant: runtime.campaigns_for(tenant),
    viewer_of=viewer_of,
    view=view_state,
    decode=lambda recorded: decode_event(recorded.type, recorded.data),
    redact=view_event,
    missing=not_found,
    absent=not_found,
    has_seat=lambda state, runner: state.runner(runner) is not None,
    unknown_seat=_unknown_runner,
    fixed_seats=False,
)


def create(
    campaigns: Campaigns,
    clock: CampaignClock,
    request: CreateCampaign,
    secret: bytes,
    now: int,
    at: float,
) -> dict[str, Any]:
    """Start a campaign and put it on the schedule; its id and version, and the GM and
    spectator tokens."""
    campaign_id = uuid.uuid4().hex
    done = campaigns.execute(campaign_id, request.to_domain(at), SystemRng(), seen_version=0)
    clock.reschedule(campaign_id, done.state, version=done.version)
    tenant, ttl = campaigns.store.keys.tenant, request.token_ttl_seconds
    Tables(campaigns.store.client, campaigns.store.keys).add("campaigns", campaign_id, now_ms())
    tokens = CAMPAIGNS.first_tokens(secret, campaign_id, now, ttl, tenant)
    return {"campaign_id": campaign_id, **tokens, "version": done.version}


def authorize(grant: RoleToken, runner: str | None, what: str) -> None:
    """The GM does anything; a player acts only for their own runner; a spectator watches."""
    if grant.role == "gm":
        return
    if grant.role == "spectator":
        raise Forbidden("a spectator can only watch")
    if runner is None:
        raise Forbidden(f"only the GM may {what}")
    if runner != grant.member:
        raise Forbidden("a player may only act for their own runner")


def _result(done: Sequence[Executed[CampaignState]], viewer: Viewer) -> dict[str, Any]:
    last = done[-1]
    return {
        "version": last.version,
        "duplicate": all(d.duplicate for d in done),
        "events": [e for d in done for e in CAMPAIGNS.feed(d.events, viewer, d.decided)],
        "view": view_state(last.state, viewer),
    }


def send(
    campaigns: Campaigns,
    grant: RoleToken,
    build: Callable[[CampaignState], Any],
    *,
    actor: str | None = None,
    what: str = "send this command",
    seen_version: int | None = None,
    command_id: str | None = None,
    request: BaseModel | None = None,
    clock: CampaignClock | None = None,
    guard: Guard | None = None,
) -> dict[str, Any]:
    """Run the command `build` makes from the current state, as the token allows.

    `actor` is the runner a player may act for (None: the GM's alone). `request` is the
    body the command was sent as: a `command_id` is recorded with its fingerprint (the
    domain command is no fingerprint: a retry may build another, with a fresh run id or
    the time of its own arrival). With `clock`, the campaign is rescheduled after the
    command (cadence changes, the end). `guard`: the token's revocation check, made by
    the append (never for a removal, which revokes the runner's tokens before it
    appends: its token is checked before).
    """
    authorize(grant, actor, what)
    campaign_id = CAMPAIGNS.table_id(grant)
    state = CAMPAIGNS.started(campaigns, campaign_id).state
    command = build(state)
    if isinstance(command, RemoveRunner):
        if guard is not None:  # its revocation would come before the token's check
            raise TypeError("a runner's removal checks its token before it revokes")
        # Before the removal: the runner's tokens stop working the moment they leave.
        revocations = Revocations(campaigns.store.client, campaigns.store.keys)
        revocations.revoke(campaigns.stream(campaign_id), f"member:{command.runner}", now_ms())
    key = scoped_command_id(grant, command_id)
    done = campaigns.execute(
        campaign_id,
        command,
        SystemRng(),
        seen_version=seen_version,
        command_id=key,
        guard=guard,
        fingerprint=None if key is None or request is None else command_fingerprint(request),
    )
    if clock is not None:
        clock.reschedule(campaign_id, done.state, version=done.version)
    return _result([done], viewer_of(grant))


def advance(
    campaigns: Campaigns, clock: CampaignClock, grant: RoleToken, request: Advance, at: float
) -> dict[str, Any]:
    """GM: pass downtimes now, one event per downtime index (shared with the scheduler).

    With a `command_id`, the first attempt's target is kept: a retry (racing or later)
    passes nothing more and answers the downtimes the first one set out to pass.
    """
    if grant.role != "gm":
        raise Forbidden("only the GM may advance the campaign")
    campaign_id = CAMPAIGNS.table_id(grant)
    loaded = CAMPAIGNS.started(campaigns, campaign_id)
    state = loaded.state
    key = scoped_command_id(grant, request.command_id)
    retried = (
        key is not None and campaigns.store.intent(campaigns.stream(campaign_id), key) is not None
    )
    seen = request.seen_version
    if seen is not None and not retried and loaded.version != seen:
        raise WrongExpectedVersion(campaigns.stream(campaign_id), seen, loaded.version)
    through = request.through if request.through is not None else state.downtime + 1
    if not retried and through - state.downtime > MAX_ADVANCE:
        raise InvalidRequest(
            f"advance at most {MAX_ADVANCE} downtimes per request",
            [{"loc": ["through"], "msg": "too far ahead", "type": "too_far"}],
        )
    viewer = viewer_of(grant)
    retry = False  # what `duplicate` says: a retry of a command id, nothing else
    if key is not None:
        done, retry = clock.advance_once(
            campaign_id, at, through, start=state.downtime, client_command_id=key
        )
        if done:
            return {**_result(done, viewer), "duplicate": retry}
    else:
        done = clock.advance(campaign_id, at, through=through)
        if done:
            return _result(done, viewer)
    # Nothing to pass (`through` at or below the counter), or a retry of an attempt that
    # passed nothing.
    loaded = campaigns.load(campaign_id)
    return {
        "version": loaded.version,
        "duplicate": retry or retried,
        "events": [],
        "view": view_state(loaded.state, viewer),
    }


def ticks(
    campaigns: Campaigns, grant: RoleToken, after: int = 0, limit: int = 50
) -> dict[str, Any]:
    """This viewer's DowntimePassed events after version `after`, oldest first.

    `next_after` is the cursor of the next page (null once the history is read through).
    """
    store = campaigns.store
    stream = campaigns.stream(CAMPAIGNS.table_id(grant))
    viewer = viewer_of(grant)
    limit = max(1, min(limit, MAX_PAGE))
    found: list[dict[str, Any]] = []
    cursor, scanned = after, 0
    while len(found) < limit and scanned < MAX_SCAN:
        page = store.read(stream, from_version=cursor + 1, limit=MAX_PAGE)
        if not page:
            return {"version": store.version(stream), "ticks": found, "next_after": None}
        for recorded in page:
            cursor, scanned = recorded.version, scanned + 1
            if recorded.type == TICK:
                shown = CAMPAIGNS.shown(recorded, viewer)
                if shown is not None:
                    found.append(shown)
                    if len(found) == limit:
                        break
    version = store.version(stream)
    return {
        "version": version,
        "ticks": found,
        "next_after": cursor if cursor < version else None,
    }
