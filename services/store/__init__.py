"""The event store: the one place in Daedalus that talks to Redis."""

from services.store.connection import (
    Connection,
    SingleConnection,
    check_durability,
    connect_url,
    start_embedded,
)
from services.store.errors import (
    IdempotencyConflict,
    InvalidBatch,
    StoreError,
    UnsafeRedis,
    WrongExpectedVersion,
)
from services.store.model import ANY, NO_STREAM, AppendResult, NewEvent, RecordedEvent, Snapshot
from services.store.redis_store import LogCursor, RedisEventStore

__all__ = [
    "ANY",
    "NO_STREAM",
    "AppendResult",
    "Connection",
    "IdempotencyConflict",
    "InvalidBatch",
    "LogCursor",
    "NewEvent",
    "RecordedEvent",
    "RedisEventStore",
    "SingleConnection",
    "Snapshot",
    "StoreError",
    "UnsafeRedis",
    "WrongExpectedVersion",
    "check_durability",
    "connect_url",
    "start_embedded",
]
