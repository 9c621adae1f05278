"""The event store's errors: stable codes for conflicts and refused batches."""

from __future__ import annotations

from services.errors import DomainError


class StoreError(DomainError):
    """Root of the event store's errors."""

    code = "store_error"
    http_status = 409


class WrongExpectedVersion(StoreError):
    """The stream is not at the version the writer expected; nothing was written."""

    code = "version_conflict"

    def __init__(self, stream: str, expected: int, actual: int) -> None:
        super().__init__(
            f"stream {stream!r} is at version {actual}, not {expected}", code=self.code
        )
        self.stream = stream
        self.expected_version = expected
        self.actual_version = actual


class IdempotencyConflict(StoreError):
    """Some, not all, of a batch's event ids are already stored (or stored elsewhere)."""

    code = "idempotency_conflict"


class InvalidBatch(StoreError):
    """A batch that can never be written: empty, duplicate ids, bad fields."""

    code = "invalid_batch"
    http_status = 422


class UnsafeRedis(StoreError):
    """The Redis server would not keep events safely (no AOF, evicting policy)."""

    code = "unsafe_redis"
    http_status = 500
