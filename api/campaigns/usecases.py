"""Campaign use cases on the runtime: blocking (Redis), so callers run them in a thread.

Every output goes through the caller's viewer (services/campaign/views.py): the GM sees
everything, players and spectators the table — the supplies only as a level.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from api.campaigns.access import campaign_id_of, not_found, subject
from api.campaigns.requests import MAX_ADVANCE, Advance, CreateCampaign, IssueCampaignToken
from api.problems import InvalidRequest
from api.sessions.access import scoped_command_id
from api.sessions.requests import RevokeTokens
from api.sessions.revocation import now_ms, revoke
from api.sessions.tokens import Forbidden, RoleToken, issue_token
from services.campaign import CampaignState, Viewer, view_event, view_state
from services.campaign.codec import decode_event
from services.campaign.commands import RemoveRunner
from services.campaign.errors import UNKNOWN_RUNNER, CampaignError
from services.dice import SystemRng
from services.store.campaigns import CampaignClock
from services.store.errors import WrongExpectedVersion
from services.store.model import RecordedEvent
from services.store.revocations import Revocations
from services.store.sessions import Executed, SessionService
from services.store.tables import Tables

MAX_PAGE = 500
# A tick page reads at most this many events looking for ticks (then gives a cursor).
MAX_SCAN = 5000
TICK = "DowntimePassed"

Campaigns = SessionService[CampaignState]


@dataclass(frozen=True, slots=True)
class Created:
    """A new campaign and its first two tokens."""

    campaign_id: str
    gm_token: str
    spectator_token: str
    version: int


def viewer_of(grant: RoleToken) -> Viewer:
    """The domain's viewer for a token."""
    if grant.role == "gm":
        return Viewer.gm()
    if grant.role == "player" and grant.member is not None:
        return Viewer.player(grant.member)
    return Viewer.spectator()


def redacted(recorded: RecordedEvent, viewer: Viewer) -> dict[str, Any] | None:
    """A stored event as this viewer may see it, with its version in the campaign."""
    shown = view_event(decode_event(recorded.type, recorded.data), viewer)
    return None if shown is None else {"version": recorded.version, **shown}


def feed(events: Sequence[RecordedEvent], viewer: Viewer) -> list[dict[str, Any]]:
    """Stored events as this viewer may see them, in order."""
    return [e for e in (redacted(r, viewer) for r in events) if e is not None]


def create(
    campaigns: Campaigns,
    clock: CampaignClock,
    request: CreateCampaign,
    secret: bytes,
    now: int,
    at: float,
) -> Created:
    """Start a campaign and put it on the schedule; the GM and spectator tokens come back."""
    campaign_id = uuid.uuid4().hex
    done = campaigns.execute(campaign_id, request.to_domain(at), SystemRng(), seen_version=0)
    clock.reschedule(campaign_id, done.state, version=done.version)
    tenant, ttl = campaigns.store.keys.tenant, request.token_ttl_seconds
    Tables(campaigns.store.client, campaigns.store.keys).add("campaigns", campaign_id, now_ms())
    return Created(
        campaign_id,
        issue_token(secret, subject(campaign_id), "gm", now, ttl_seconds=ttl, tenant=tenant),
        issue_token(secret, subject(campaign_id), "spectator", now, ttl_seconds=ttl, tenant=tenant),
        done.version,
    )


def _require_created(campaigns: Campaigns, campaign_id: str) -> CampaignState:
    loaded = campaigns.load(campaign_id)
    if loaded.version == 0:
        raise not_found()
    return loaded.state


def _require_gm(grant: RoleToken, what: str) -> None:
    if grant.role != "gm":
        raise Forbidden(f"only the GM may {what}")


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


def issue(
    campaigns: Campaigns,
    grant: RoleToken,
    request: IssueCampaignToken,
    secret: bytes,
    now: int,
) -> str:
    """GM: a player token (bound to one runner of the campaign) or a spectator token."""
    _require_gm(grant, "issue tokens")
    state = _require_created(campaigns, campaign_id_of(grant))
    if request.runner is not None and state.runner(request.runner) is None:
        raise CampaignError(f"unknown runner {request.runner!r}", code=UNKNOWN_RUNNER)
    return issue_token(
        secret,
        grant.session_id,
        request.role,
        now,
        request.runner,
        request.ttl_seconds,
        tenant=grant.tenant,
        # In ms, after any revocation made until now (which covers the same second).
        now_ms=max(now_ms(), now * 1000),
    )


def _result(done: Sequence[Executed[CampaignState]], viewer: Viewer) -> dict[str, Any]:
    last = done[-1]
    return {
        "version": last.version,
        "duplicate": all(d.duplicate for d in done),
        "events": [e for d in done for e in feed(d.events, viewer)],
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
    clock: CampaignClock | None = None,
) -> dict[str, Any]:
    """Run the command `build` makes from the current state, as the token allows.

    `actor` is the runner a player may act for (None: the GM's alone). With `clock`, the
    campaign is rescheduled after the command (cadence changes, the end).
    """
    authorize(grant, actor, what)
    campaign_id = campaign_id_of(grant)
    state = _require_created(campaigns, campaign_id)
    command = build(state)
    if isinstance(command, RemoveRunner):
        # Before the removal: the runner's tokens stop working the moment they leave.
        revocations = Revocations(campaigns.store.client, campaigns.store.keys)
        revocations.revoke(campaigns.stream(campaign_id), f"member:{command.runner}", now_ms())
    done = campaigns.execute(
        campaign_id,
        command,
        SystemRng(),
        seen_version=seen_version,
        command_id=scoped_command_id(grant, command_id),
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
    _require_gm(grant, "advance the campaign")
    campaign_id = campaign_id_of(grant)
    loaded = campaigns.load(campaign_id)
    if loaded.version == 0:
        raise not_found()
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
    loaded = campaigns.load(campaign_id)
    return {
        "version": loaded.version,
        "duplicate": True,
        "events": [],
        "view": view_state(loaded.state, viewer),
    }


def look(campaigns: Campaigns, grant: RoleToken) -> dict[str, Any]:
    """The campaign as this token's viewer sees it."""
    loaded = campaigns.load(campaign_id_of(grant))
    if loaded.version == 0:
        raise not_found()
    return {
        "campaign_id": campaign_id_of(grant),
        "role": grant.role,
        "runner": grant.member,
        "version": loaded.version,
        "view": view_state(loaded.state, viewer_of(grant)),
    }


def history(
    campaigns: Campaigns, grant: RoleToken, after: int = 0, limit: int = 100
) -> dict[str, Any]:
    """This viewer's events after version `after` (exclusive), at most `limit` of them."""
    store = campaigns.store
    stream = campaigns.stream(campaign_id_of(grant))
    page = store.read(stream, from_version=after + 1, limit=max(1, min(limit, MAX_PAGE)))
    return {"version": store.version(stream), "events": feed(page, viewer_of(grant))}


def ticks(
    campaigns: Campaigns, grant: RoleToken, after: int = 0, limit: int = 50
) -> dict[str, Any]:
    """This viewer's DowntimePassed events after version `after`, oldest first.

    `next_after` is the cursor of the next page (null once the history is read through).
    """
    store = campaigns.store
    stream = campaigns.stream(campaign_id_of(grant))
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
                shown = redacted(recorded, viewer)
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


def revoke_in_campaign(
    campaigns: Campaigns, grant: RoleToken, request: RevokeTokens, secret: bytes
) -> dict[str, Any]:
    """GM: revoke tokens of this campaign (`member` is a runner id, present or past)."""
    _require_gm(grant, "revoke tokens")
    campaign_id = campaign_id_of(grant)
    _require_created(campaigns, campaign_id)
    revocations = Revocations(campaigns.store.client, campaigns.store.keys)
    return revoke(revocations, campaigns.stream(campaign_id), grant, request, secret)
