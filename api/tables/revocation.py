"""Revoking role tokens, and refusing revoked ones on every path (sessions and campaigns).

The GM revokes one token (by its id), every token of a member (a player's seat, a
campaign runner) or of a role; removing a runner revokes theirs. Revocations live in
Redis (services/store/revocations.py) and are checked on every request and on every
open subscription at least once a second.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from api.sessions.requests import RevokeTokens
from api.tables.access import NotReady
from api.tables.tokens import (
    MIN_TTL_SECONDS,
    Forbidden,
    RoleToken,
    TokenRevoked,
    issue_token,
    token_facts,
)
from services.store.revocations import Revocations, covered

# An open subscription looks at its token's revocations this often (seconds).
RECHECK_SECONDS = 0.25
TOKEN_FOREVER = 2**62  # a single token's revocation covers it whenever it was issued
REVOKED = "this token has been revoked"


def now_ms() -> int:
    """Milliseconds since the epoch: when tokens are issued and revoked."""
    return time.time_ns() // 1_000_000


def scopes_of(grant: RoleToken) -> list[str]:
    """Every revocation scope that covers this token."""
    scopes = ["all", f"role:{grant.role}"]
    if grant.member is not None:
        scopes.append(f"member:{grant.member}")
    if grant.token_id is not None:
        scopes.append(f"token:{grant.token_id}")
    return scopes


def ensure_live(revocations: Revocations, stream: str, grant: RoleToken) -> None:
    """TokenRevoked when a revocation covers this token (blocking: one HMGET)."""
    refuse_if_covered(grant, revocations.cutoffs(stream, scopes_of(grant)))


def refuse_if_covered(grant: RoleToken, cutoffs: list[int | None]) -> None:
    """TokenRevoked when one of the cutoffs of the grant's scopes covers it."""
    if covered(grant.issued_at_ms, cutoffs):
        raise TokenRevoked(REVOKED)


class RevocationWatch:
    """Per process: each followed stream's revocations, read at most every RECHECK_SECONDS.

    Open subscriptions share it, so a thousand watchers of one table cost one HGETALL
    every half second, not a thousand: watchers that find the reading stale at once
    await the one read then in flight (three hundred subscriptions opened together read
    once, on one connection, rather than each on its own).
    """

    MAX_STREAMS = 4096

    def __init__(self) -> None:
        self._read: dict[tuple[str, str], tuple[float, dict[str, int]]] = {}
        self._reading: dict[tuple[str, str], asyncio.Future[dict[str, int]]] = {}

    async def ensure_live(self, conn: HTTPConnection, stream: str, grant: RoleToken) -> None:
        """TokenRevoked when a revocation read at most RECHECK_SECONDS ago covers `grant`."""
        key = (grant.tenant, stream)
        at = time.monotonic()
        cached = self._read.get(key)
        if cached is None or at - cached[0] >= RECHECK_SECONDS:
            reading = self._reading.get(key)
            if reading is None:
                reading = asyncio.ensure_future(self._table(conn, grant.tenant, stream))
                self._reading[key] = reading
                reading.add_done_callback(lambda done: self._settle(key, at, done))
            # Shielded: a watcher that goes away does not cancel the others' read.
            table = await asyncio.shield(reading)
        else:
            table = cached[1]
        refuse_if_covered(grant, [table.get(scope) for scope in scopes_of(grant)])

    async def _table(self, conn: HTTPConnection, tenant: str, stream: str) -> dict[str, int]:
        runtime = getattr(conn.app.state, "runtime", None)
        store = None if runtime is None else runtime.async_store_for(tenant)
        table: dict[str, int]
        if store is not None:  # the runtime's asyncio client: no thread hop
            table = await store.revocation_table(stream)
        else:
            table = await run_in_threadpool(revocations_of(conn, tenant).table, stream)
        return table

    def _settle(
        self, key: tuple[str, str], at: float, done: asyncio.Future[dict[str, int]]
    ) -> None:
        """A read has ended: keep its table (from `at`, when it was asked for)."""
        del self._reading[key]
        if done.cancelled() or done.exception() is not None:
            return  # each of its watchers got the error (a later check reads again)
        if len(self._read) >= self.MAX_STREAMS:
            self._forget_before(at - RECHECK_SECONDS)
        self._read[key] = (at, done.result())

    def _forget_before(self, cutoff: float) -> None:
        for key in [k for k, (read, _) in self._read.items() if read < cutoff]:
            del self._read[key]


def watch_of(conn: HTTPConnection) -> RevocationWatch:
    """The process's revocation watch (created on first use)."""
    watch: RevocationWatch | None = getattr(conn.app.state, "revocation_watch", None)
    if watch is None:
        watch = conn.app.state.revocation_watch = RevocationWatch()
    return watch


def revocations_of(conn: HTTPConnection, tenant: str) -> Revocations:
    """The revocations of `tenant` on the running store."""
    runtime = getattr(conn.app.state, "runtime", None)
    if runtime is None:
        raise NotReady("the event store is not reachable")
    found: Revocations = runtime.revocations_for(tenant)
    return found


def revoke(
    revocations: Revocations,
    stream: str,
    grant: RoleToken,
    request: RevokeTokens,
    secret: bytes,
) -> dict[str, Any]:
    """GM: record the revocation; when it covers the GM's own tokens, a fresh GM token.

    Blocking (Redis): callers run it in a thread.
    """
    if grant.role != "gm":
        raise Forbidden("only the GM revokes tokens")
    cutoff = now_ms()
    if request.token_id is not None:
        scope, cutoff = f"token:{request.token_id}", TOKEN_FOREVER
    elif request.member is not None:
        scope = f"member:{request.member}"
    elif request.role is not None:
        scope = f"role:{request.role}"
    else:
        scope = "all"
    revocations.revoke(stream, scope, cutoff)
    out: dict[str, Any] = {"revoked": scope}
    if scope in ("all", "role:gm"):
        # The GM keeps the table: a token issued after the cutoff, as long as the last.
        issued_ms = max(now_ms(), cutoff + 1)
        token = issue_token(
            secret,
            grant.session_id,
            "gm",
            issued_ms // 1000,
            ttl_seconds=max(MIN_TTL_SECONDS, grant.expires - grant.issued),
            tenant=grant.tenant,
            now_ms=issued_ms,
        )
        out["gm_token"] = {"token": token, **token_facts(token)}
    return out
