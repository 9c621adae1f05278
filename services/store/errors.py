"""The event store's errors: stable codes for conflicts and refused batches."""

from __future__ import annotations

from typing import TYPE_CHECKING

import redis

from services.errors import DomainError

if TYPE_CHECKING:
    from services.store.model import RecordedEvent


class StoreError(DomainError):
    """Root of the event store's errors."""

    code = "store_error"
    http_status = 409


class WrongExpectedVersion(StoreError):
    """The stream is not at the version the writer expected; nothing was written.

    The message reaches clients (a stale `seen_version`), so it names the versions only,
    not the stream's internal name; `stream` says which it is, for the code and logs.
    """

    code = "version_conflict"

    def __init__(
        self,
        stream: str,
        expected: int,
        actual: int,
        newer: list[RecordedEvent] | None = None,
    ) -> None:
        super().__init__(
            f"version conflict: at version {actual}, not the expected {expected}",
            code=self.code,
        )
        self.stream = stream
        self.expected_version = expected
        self.actual_version = actual
        # The append script's refusal: the events after `expected`, up to `actual`, when
        # it carried them (the stream was at most CONFLICT_EVENTS ahead); None otherwise.
        self.newer = newer


class IdempotencyConflict(StoreError):
    """Some, not all, of a batch's event ids are already stored (or stored elsewhere)."""

    code = "idempotency_conflict"


class InvalidBatch(StoreError):
    """A batch that can never be written: empty, duplicate ids, bad fields."""

    code = "invalid_batch"
    http_status = 422


class Revoked(StoreError):
    """The append's guard found its role token revoked; nothing was written."""

    code = "token_revoked"
    http_status = 401


class UnsafeRedis(StoreError):
    """The Redis server would not keep events safely (no AOF, evicting policy)."""

    code = "unsafe_redis"
    http_status = 500


class StoreUnavailable(redis.exceptions.ConnectionError):
    """Redis cannot be reached or did not answer in time: retry later, nothing is wrong.

    A redis-py ConnectionError (code that handles those keeps working), not a domain
    error: GraphQL reports it in `errors` with `extensions.code`, never as a `Problem`.
    """

    code = "store_unavailable"
    http_status = 503
    retry_after = 1  # seconds

    @property
    def message(self) -> str:
        """What the client is told."""
        return str(self.args[0]) if self.args else "the event store is unreachable"
