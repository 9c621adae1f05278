"""`python -m api`: serve Daedalus with uvicorn on the configured host and port.

With `WEB_CONCURRENCY=N` (N > 1) uvicorn runs N API processes on the port, each built
by `app` below; this process supervises them, the Celery worker and beat, and owns the
embedded Redis they all share (its state is all in Redis: sessions, rate limits, jobs).
"""

from __future__ import annotations

import logging
import signal
from types import FrameType
from typing import Any

import uvicorn
from starlette.types import ASGIApp

from api.app import create_app
from api.gc_policy import CollectClosedSockets, tune_gc
from api.listening import serve_processes
from api.protocol import HttpProtocol
from api.secret_key import with_stored_key
from infra.logs import configure_logging
from infra.settings import Settings
from workers.client import shared_embedded, worker_alongside

GRACEFUL_SHUTDOWN_SECONDS = 10

log = logging.getLogger("api")


def _exit(signum: int, frame: FrameType | None) -> None:
    # uvicorn re-raises the SIGTERM it shut down on; the default action would end the
    # process at once, leaving the worker and beat started below running. Exiting
    # through Python instead stops them (worker_alongside's cleanup).
    raise SystemExit(128 + signum)


def app() -> ASGIApp:
    """One API process of many (WEB_CONCURRENCY): the app on the settings the parent
    prepared (its data folder, its stored secret key, the Redis it started)."""
    settings = with_stored_key(Settings())
    configure_logging(settings.log_level)
    tune_gc()
    return CollectClosedSockets(create_app(settings))


def main() -> None:
    """Read the settings, prepare the data folder and serve until interrupted."""
    settings = Settings()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    settings = with_stored_key(settings)
    configure_logging(settings.log_level)
    signal.signal(signal.SIGTERM, _exit)
    # log_config=None keeps uvicorn off the logging setup; its access log is replaced by
    # api/middleware/access_log.py (JSON, request ids, no query strings).
    # Stopped in order: uvicorn stops accepting and drains (timeout below), the lifespan
    # releases the Celery connections and the runtime's client, then worker_alongside
    # stops beat and the workers and, last, the embedded Redis.
    with (
        worker_alongside(settings, settings.worker_processes) as processes,
        shared_embedded(settings),
    ):
        options: dict[str, Any] = {
            "host": settings.host,
            "port": settings.port,
            "log_config": None,
            "access_log": False,
            # Open subscriptions must not hold a stopping server forever (a rollout, a
            # Ctrl-C): after this, what is left is cancelled and the lifespan closes.
            "timeout_graceful_shutdown": GRACEFUL_SHUTDOWN_SECONDS,
            # A WebSocket message obeys the body limit of an HTTP request: a larger one
            # closes the socket with 1009 (message too big) before it is parsed.
            "ws_max_size": settings.max_body_bytes,
            # uvicorn's httptools protocol, a response's writes sent as one (api/protocol.py).
            "http": HttpProtocol,
        }
        if settings.api_processes > 1:
            # Each process builds its own app (`app` above, a factory) and listens on a
            # socket of its own (api/listening.py).
            n = settings.api_processes
            log.info("serving on %s:%d with %d API processes", settings.host, settings.port, n)
            serve_processes(uvicorn.Config("api.__main__:app", factory=True, workers=n, **options))
            return
        one = create_app(settings)
        one.state.processes = processes  # their liveness, in /readyz
        tune_gc()
        uvicorn.run(CollectClosedSockets(one), **options)


if __name__ == "__main__":
    main()
