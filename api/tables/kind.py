"""One kind of table, and the use cases every table shares.

A kind is what an event-sourced aggregate supplies — its service on the runtime, the
subject its role tokens name, its viewers, views and event redaction, its seats — and on
top of it every table has the same first tokens, token issue and revocation, view, event
history and grant check. Sessions (api/sessions/usecases.py) and campaigns
(api/campaigns/usecases.py) add only their commands. The use cases block (Redis):
callers run them in a thread; the look, the event page, the token issue and the
revocation check also come awaited (`alook`, `ahistory`, `aissue`, `alive`), on the
tenant's asyncio store.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from starlette.requests import HTTPConnection

from api.tables.access import NotReady, now, secret_of, tenant_of
from api.tables.revocation import (
    ensure_live,
    now_ms,
    refuse_if_covered,
    revocations_of,
    revoke,
    scopes_of,
)
from api.tables.tokens import (
    Forbidden,
    InvalidToken,
    Role,
    RoleToken,
    SessionNotFound,
    authenticate,
    first_tokens,
    issue_token,
    token_facts,
)
from infra.logs import annotate
from services.errors import DomainError
from services.store.aio import AsyncEventStore
from services.store.model import RecordedEvent
from services.store.revocations import Revocations
from services.store.sessions import Loaded, SessionService

S = TypeVar("S")
V = TypeVar("V")
MAX_PAGE = 500
PAGE = 100  # events read, redacted and delivered as one page (a catch-up's, a price's)
PAGE_PRICE = 2  # rate-limit tokens for each page of events after the first
TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


@dataclass(frozen=True, slots=True)
class Kind(Generic[S, V]):
    """What one aggregate supplies to be a table.

    `noun` names it in messages and answers (`<noun>_id`); `seat` is what a player token
    binds (`member`, `runner`); its tokens name `prefix + id`. `service_of(runtime,
    tenant)` is its event-sourced service; `viewer_of` a token's viewer, `view` the state
    as a viewer sees it, `decode` a stored event as the aggregate's own event, `redact`
    one of those as a viewer sees it (None: hidden).
    `missing` is the error for a table the caller cannot reach, `absent` for one with no
    events yet, `unknown_seat` for a seat that is not at the table (`has_seat`). With
    `fixed_seats` (a session's party), a revocation names only a seat at the table; a
    campaign's runners come and go, and a past runner's tokens stay revocable."""

    noun: str
    seat: str
    prefix: str
    service_of: Callable[[Any, str], SessionService[S]]
    viewer_of: Callable[[RoleToken], V]
    view: Callable[[S, V], dict[str, Any]]
    decode: Callable[[RecordedEvent], Any]
    redact: Callable[[Any, V], dict[str, Any] | None]
    missing: Callable[[], DomainError]
    absent: Callable[[], DomainError]
    has_seat: Callable[[S, str], bool]
    unknown_seat: Callable[[str], DomainError]
    fixed_seats: bool = True

    def subject(self, table_id: str) -> str:
        """The token subject of a table (the role token's `session_id`)."""
        return self.prefix + table_id

    def table_id(self, grant: RoleToken) -> str:
        """The table a verified grant is for."""
        return grant.session_id.removeprefix(self.prefix)

    def of(self, conn: HTTPConnection) -> SessionService[S]:
        """The caller's tenant's service of this kind."""
        runtime = getattr(conn.app.state, "runtime", None)
        if runtime is None:
            raise NotReady("the event store is not reachable")
        return self.service_of(runtime, tenant_of(conn))

    def shown(self, recorded: RecordedEvent, viewer: V, event: Any = None) -> dict[str, Any] | None:
        """A stored event as this viewer may see it, with its version in the table
        (`event`: what it decodes to, when the caller holds it)."""
        shown = self.redact(self.decode(recorded) if event is None else event, viewer)
        return None if shown is None else {"version": recorded.version, **shown}

    def feed(
        self, events: Sequence[RecordedEvent], viewer: V, decided: Sequence[Any] = ()
    ) -> list[dict[str, Any]]:
        """Stored events as this viewer may see them, in order. `decided`: what they
        decode to, one for each (a command's own events, `Executed.decided`), so that
        they are not decoded again; empty, they are."""
        if not decided:
            decided = [None] * len(events)
        shown = (self.shown(r, viewer, e) for r, e in zip(events, decided, strict=True))
        return [e for e in shown if e is not None]

    def started(self, service: SessionService[S], table_id: str) -> Any:
        """The table loaded, once it has events (`absent` before)."""
        return self._started(service.load(table_id))

    def _started(self, loaded: Loaded[S]) -> Loaded[S]:
        if loaded.version == 0:
            raise self.absent()
        return loaded

    def grant(
        self, conn: HTTPConnection, table_id: str, token: str | None, where: str
    ) -> RoleToken:
        """The grant of `token` for this table in the caller's tenant, its signature,
        expiry and table verified (401 `invalid_token`, 403, 404) without I/O; `where`
        says where the caller sends its token, for the message when there is none. Not
        yet checked against revocations: `live` does that (blocking, one Redis read)."""
        annotate(**{f"{self.noun}_id": table_id})  # the request's log lines name it
        if not token:
            raise InvalidToken(f"a {self.noun} token is required ({where})")
        if not TABLE_ID.fullmatch(table_id):
            # Ids are ours: this also keeps one kind's token from passing for another's.
            raise self.missing()
        try:
            found = authenticate(
                secret_of(conn), token, self.subject(table_id), now(), tenant_of(conn)
            )
        except InvalidToken as exc:  # the token checks speak of session tokens
            raise InvalidToken(exc.message.replace("session token", f"{self.noun} token")) from None
        except SessionNotFound:  # another tenant's token: as if the table did not exist
            raise self.missing() from None
        except Forbidden as exc:
            if exc.message == "this token is for another session":
                raise Forbidden(f"this token is for another {self.noun}") from None
            raise
        return found

    def live(self, conn: HTTPConnection, grant: RoleToken) -> None:
        """401 `token_revoked` when a revocation covers `grant` (blocking: one HMGET)."""
        stream = self.of(conn).stream(self.table_id(grant))
        ensure_live(revocations_of(conn, grant.tenant), stream, grant)

    async def alive(self, conn: HTTPConnection, grant: RoleToken, store: AsyncEventStore) -> None:
        """`live` on the tenant's asyncio store (`store`), awaited in the event loop."""
        stream = self.of(conn).stream(self.table_id(grant))
        refuse_if_covered(grant, await store.revocation_cutoffs(stream, scopes_of(grant)))

    def first_tokens(
        self, secret: bytes, table_id: str, issued: int, ttl: int, tenant: str
    ) -> dict[str, str]:
        """A new table's GM and spectator tokens, their ids and (shared) expiry."""
        subject = self.subject(table_id)
        gm = issue_token(secret, subject, "gm", issued, ttl_seconds=ttl, tenant=tenant)
        watch = issue_token(secret, subject, "spectator", issued, ttl_seconds=ttl, tenant=tenant)
        return first_tokens(gm, watch)

    def issue(
        self, service: SessionService[S], grant: RoleToken, request: Any, secret: bytes
    ) -> dict[str, Any]:
        """GM: a player token (bound to a seat at the table), a spectator's, or a renewed
        GM token (`request`: its `role`, seat and `ttl_seconds`); the token, its id and
        expiry, and what it grants."""
        _may_issue(grant)
        loaded = self.started(service, self.table_id(grant))
        return self._issued(loaded.state, grant, request, secret)

    async def aissue(
        self,
        service: SessionService[S],
        store: AsyncEventStore,
        grant: RoleToken,
        request: Any,
        secret: bytes,
    ) -> dict[str, Any]:
        """`issue` on the tenant's asyncio store (`store`), awaited in the event loop."""
        _may_issue(grant)
        loaded = self._started(await service.aload(store, self.table_id(grant)))
        return self._issued(loaded.state, grant, request, secret)

    def _issued(self, state: S, grant: RoleToken, request: Any, secret: bytes) -> dict[str, Any]:
        role: Role = request.role
        seat: str | None = getattr(request, self.seat)
        ttl: int = request.ttl_seconds
        if seat is not None and not self.has_seat(state, seat):
            raise self.unknown_seat(seat)
        issued = now()
        token = issue_token(
            secret, grant.session_id, role, issued, seat, ttl, tenant=grant.tenant,
            # In ms, after any revocation made until now (which covers the same second).
            now_ms=max(now_ms(), issued * 1000),
        )  # fmt: skip
        return {"token": token, **token_facts(token), "role": role, self.seat: seat}

    def revoke(
        self, service: SessionService[S], grant: RoleToken, request: Any, secret: bytes
    ) -> dict[str, Any]:
        """GM: revoke tokens of this table (a token, a seat's, a role's, all)."""
        if grant.role != "gm":
            raise Forbidden("only the GM may revoke tokens")
        table_id = self.table_id(grant)
        state = self.started(service, table_id).state
        seat = request.member
        if seat is not None and self.fixed_seats and not self.has_seat(state, seat):
            raise self.unknown_seat(seat)
        revocations = Revocations(service.store.client, service.store.keys)
        return revoke(revocations, service.stream(table_id), grant, request, secret)

    def look(self, service: SessionService[S], grant: RoleToken) -> dict[str, Any]:
        """The table as this token's viewer sees it, and its version."""
        return self._looked(grant, service.load(self.table_id(grant)))

    async def alook(
        self, service: SessionService[S], store: AsyncEventStore, grant: RoleToken
    ) -> dict[str, Any]:
        """`look` on the tenant's asyncio store (`store`), awaited in the event loop."""
        return self._looked(grant, await service.aload(store, self.table_id(grant)))

    def _looked(self, grant: RoleToken, loaded: Loaded[S]) -> dict[str, Any]:
        table_id = self.table_id(grant)
        loaded = self._started(loaded)
        return {
            f"{self.noun}_id": table_id,
            "role": grant.role,
            self.seat: grant.member,
            "version": loaded.version,
            "view": self.view(loaded.state, self.viewer_of(grant)),
        }

    def history(
        self, service: SessionService[S], grant: RoleToken, after: int, limit: int
    ) -> dict[str, Any]:
        """This viewer's events after version `after` (exclusive), at most `limit`."""
        store, stream = service.store, service.stream(self.table_id(grant))
        page = store.read(stream, from_version=after + 1, limit=_page_size(limit))
        return self._history(grant, after, page, store.version(stream))

    async def ahistory(
        self,
        service: SessionService[S],
        store: AsyncEventStore,
        grant: RoleToken,
        after: int,
        limit: int,
    ) -> dict[str, Any]:
        """`history` on the tenant's asyncio store (`store`), awaited in the event loop."""
        stream = service.stream(self.table_id(grant))
        page = await store.read(stream, from_version=after + 1, limit=_page_size(limit))
        return self._history(grant, after, page, await store.version(stream))

    def _history(
        self, grant: RoleToken, after: int, page: list[RecordedEvent], version: int
    ) -> dict[str, Any]:
        """The page as the grant's viewer sees it. `next_after`: the last version read,
        the next page's `after` (null once read through), since the events shown may end
        before it (the last ones hidden from this viewer). The stream's `version` is read
        after the page: an empty page with a newer version met an event appended between
        the two reads, which the next page reads (`after` again)."""
        last = page[-1].version if page else after
        return {
            "version": version,
            "events": self.feed(page, self.viewer_of(grant)),
            "next_after": last if last < version else None,
        }


def _may_issue(grant: RoleToken) -> None:
    if grant.role != "gm":
        raise Forbidden("only the GM may issue tokens")


def _page_size(limit: int) -> int:
    return max(1, min(limit, MAX_PAGE))
