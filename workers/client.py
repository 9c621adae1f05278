"""What the API may use of the workers: submit and read simulation jobs, the task metrics
the workers record, and (`make run`) start the workers and beat next to the API.

The one module of `workers` that `api` imports (tests/contracts/test_boundaries.py): the
Celery app's configuration, the tasks' bodies and the worker processes' signal handlers
stay behind it.
"""

from __future__ import annotations

import threading

from workers.app import app, celery_url, release
from workers.embedded import shared_embedded, worker_alongside
from workers.jobs import Jobs, key
from workers.metrics import quick_client
from workers.task_metrics import TaskMetrics
from workers.task_metrics import read as read_task_metrics
from workers.tasks import submit, submit_tuning

__all__ = [
    "Jobs",
    "TaskMetrics",
    "key",
    "quick_client",
    "read_task_metrics",
    "send_jobs_to",
    "shared_embedded",
    "stop_sending_jobs",
    "submit",
    "submit_tuning",
    "worker_alongside",
]

_bound: str | None = None
_bind_lock = threading.Lock()


def send_jobs_to(url: str) -> None:
    """Send this process's jobs to the Redis at `url` (redis-py spelling; the first call wins).

    The API submits to the Redis its runtime opened (the embedded one by default), which
    the settings alone do not name.
    """
    global _bound
    with _bind_lock:
        if _bound is None:
            broker = celery_url(url)
            app.conf.update(broker_url=broker, result_backend=broker)
            _bound = url


def stop_sending_jobs() -> None:
    """Forget where jobs go and close the connections there (the app is stopping)."""
    global _bound
    with _bind_lock:
        _bound = None
        release(app)
