"""The Celery app: Redis broker and result backend (the store's Redis by default), JSON only.

The Redis URL is the settings' `workers_redis_url` (infra/settings.py): `DAEDALUS_REDIS_URL`
(a redis-py URL: `unix:///…/redis.sock` for the embedded server, or `redis://…`), falling
back to `REDIS_URL`. A Unix socket URL is spelled `redis+socket://` for kombu and Celery's
backend.

Beat is celery-redbeat: its schedule and its lock live on the same Redis (redis-py's URL
spelling), so any number of beat processes may run and only the lock holder schedules.
"""

from __future__ import annotations

from typing import Any

# Imported with the app, not on first use: beat's SIGTERM handler builds the scheduler (and
# so the result backend) when beat's main thread has not finished building it, and a stop
# landing while that thread imports either module re-entered the half-imported module and
# printed a traceback (tests/e2e/test_operations.py saw it once in CI).
import celery.backends.redis  # noqa: F401
import redbeat.schedulers  # noqa: F401
from celery import Celery
from kombu import pools
from kombu.entity import Queue

from infra.settings import Settings
from workers import metrics

# The longest task is one shard: its hard limit is well under the visibility timeout, so
# an unacked shard is only redelivered after its worker died (notes: event-store-and-celery).
SOFT_TIME_LIMIT = 900
HARD_TIME_LIMIT = 960
VISIBILITY_TIMEOUT = 3600

REDBEAT_KEY_PREFIX = "daedalus:redbeat:"


def celery_url(url: str) -> str:
    """The same server in kombu's spelling (Unix sockets become `redis+socket://`)."""
    if url.startswith("unix://"):
        return "redis+socket://" + url.removeprefix("unix://")
    return url


def beat_config(url: str, settings: Settings) -> dict[str, Any]:
    """Beat's settings: redbeat on the Redis at `url` (redis-py spelling), the campaign scan.

    `DAEDALUS_BEAT_LOCK_TIMEOUT` (default 30 s, at least 2) bounds failover: a beat that
    dies holding the lock is replaced at most this long (plus one loop) later. The loop
    interval stays well below it, since every loop extends the lock and a beat whose lock
    expired exits. `DAEDALUS_TICK_SCAN_SECONDS` (default 5) is how often due campaigns
    are claimed and their ticks sent.
    """
    lock_timeout = settings.beat_lock_timeout
    scan = settings.tick_scan_seconds
    return {
        "beat_scheduler": "redbeat.RedBeatScheduler",
        "redbeat_redis_url": url.replace("redis+socket://", "unix://", 1),
        "redbeat_redis_options": {},
        "redbeat_key_prefix": REDBEAT_KEY_PREFIX,
        "redbeat_lock_timeout": int(lock_timeout),
        "beat_max_loop_interval": max(1.0, min(scan, lock_timeout / 5)),
        "beat_schedule": {
            "campaign-clock": {
                "task": "campaign.scan",
                "schedule": scan,
                # A scan nobody ran in time is superseded by the next one: drop it.
                "options": {"expires": max(2 * scan, 10.0)},
            }
        },
    }


# Simulation shards run for minutes; the clock's tasks take milliseconds. Separate queues
# let a deployment (and `make run`) give the clock a worker no shard can hold up; a worker
# started without `-Q` consumes both.
DEFAULT_QUEUE = "celery"
CLOCK_QUEUE = "clock"


def make_app(settings: Settings) -> Celery:
    """A configured Celery app on the workers' Redis of `settings`."""
    plain = settings.workers_redis_url
    broker = celery_url(plain)
    app = Celery(
        "daedalus", broker=broker, backend=broker, include=["workers.tasks", "workers.ticks"]
    )
    transport = {"visibility_timeout": VISIBILITY_TIMEOUT}
    app.conf.update(
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_soft_time_limit=SOFT_TIME_LIMIT,
        task_time_limit=HARD_TIME_LIMIT,
        broker_transport_options=transport,
        result_backend_transport_options=transport,
        result_expires=86_400,
        # One result backend per app, not one per thread: the API sends from a thread
        # pool, and what it holds must be released in one place when it stops (release).
        result_backend_thread_safe=True,
        broker_connection_retry_on_startup=True,
        worker_hijack_root_logger=False,
        task_default_queue=DEFAULT_QUEUE,
        task_queues=(Queue(DEFAULT_QUEUE), Queue(CLOCK_QUEUE)),  # type: ignore[no-untyped-call]
        task_routes={"campaign.*": {"queue": CLOCK_QUEUE}},
        **beat_config(plain, settings),
    )
    # Task metrics, JSON logs and tracing for every worker and beat process.
    metrics.connect_signals()
    return app


def release(celery: Celery) -> None:
    """Close `celery`'s broker and result-backend connections; they reopen on next use.

    A process that only sends tasks (the API) calls this before the Redis they point at
    may stop, so nothing is left to reconnect (and log "Connection to Redis lost") later.
    """
    backend = celery._backend_cache
    celery._backend_cache = None
    celery._local.__dict__.pop("backend", None)
    if backend is not None:
        consumer = getattr(backend, "result_consumer", None)
        if consumer is not None and getattr(consumer, "_pubsub", None) is not None:
            consumer.stop()
            # Results still alive elsewhere unsubscribe when collected: nothing to undo.
            consumer._pubsub = None
            consumer.subscribed_to.clear()
        client = backend.__dict__.get("client")  # a cached property: never create it here
        if client is not None:
            client.connection_pool.disconnect()
    # Broker connections and producers live in kombu's per-process pool registry, where
    # a closed pool would be found again: reset it (the process holds no other pools).
    pools.reset()  # type: ignore[no-untyped-call]
    celery._pool = None
    if "amqp" in celery.__dict__:
        celery.amqp._producer_pool = None


# Built from the one settings object: in production, Settings refuses what it refuses for
# the API (a broker on the event store's database, a missing secret, unsafe Redis).
app = make_app(Settings())
