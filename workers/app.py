"""The Celery app: Redis broker and result backend (the store's Redis by default), JSON only.

The Redis URL comes from `DAEDALUS_REDIS_URL` (a redis-py URL: `unix:///…/redis.sock` for
the embedded server, or `redis://…`), falling back to `REDIS_URL`. A Unix socket URL is
spelled `redis+socket://` for kombu and Celery's backend.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from celery import Celery

from api.settings import UnsafeSettingsError, broker_problem

# The longest task is one shard: its hard limit is well under the visibility timeout, so
# an unacked shard is only redelivered after its worker died (notes: event-store-and-celery).
SOFT_TIME_LIMIT = 900
HARD_TIME_LIMIT = 960
VISIBILITY_TIMEOUT = 3600


def redis_url() -> str:
    """The redis-py URL of the Redis the workers and the job records use."""
    return (
        os.environ.get("DAEDALUS_REDIS_URL")
        or os.environ.get("REDIS_URL")
        or "redis://localhost:6379/0"
    )


def refuse_unsafe_production(environ: Mapping[str, str] | None = None) -> None:
    """In production (`DAEDALUS_ENV=production`), refuse a broker on the event store's database.

    The same rule as the API's settings guard (api/settings.py), for worker and beat
    processes, which read their Redis from the environment without building `Settings`.
    """
    env = os.environ if environ is None else environ
    if env.get("DAEDALUS_ENV") != "production":
        return
    problem = broker_problem(env.get("REDIS_URL"), env.get("DAEDALUS_REDIS_URL"))
    if problem is not None:
        raise UnsafeSettingsError(f"refusing unsafe production settings: {problem}")


def celery_url(url: str) -> str:
    """The same server in kombu's spelling (Unix sockets become `redis+socket://`)."""
    if url.startswith("unix://"):
        return "redis+socket://" + url.removeprefix("unix://")
    return url


def make_app(url: str | None = None) -> Celery:
    """A configured Celery app for the Redis at `url`."""
    if url is None:
        refuse_unsafe_production()
    broker = celery_url(url or redis_url())
    app = Celery("daedalus", broker=broker, backend=broker, include=["workers.tasks"])
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
        broker_connection_retry_on_startup=True,
        worker_hijack_root_logger=False,
    )
    return app


app = make_app()
