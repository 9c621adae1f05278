"""Structured logs: one JSON object per line on stderr, each with the request id.

What may be logged is decided where a line is written (the access log writes the route
template, never the path's query, body, headers or keys); as a second line of defence
the formatter masks anything shaped like a role token or an API key.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
from contextvars import ContextVar
from typing import Any

request_id_var: ContextVar[str | None] = ContextVar("daedalus_request_id", default=None)

# Role tokens (v1.<payload>.<mac>), API keys (dk_...), bearer credentials.
_SECRET_SHAPES = re.compile(
    r"v1\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}|dk_[A-Za-z0-9_-]{16,}|(?i:bearer\s+)\S+"
)
# Fields a log call may add with `extra=`; anything else stays out of the line.
FIELDS = ("method", "route", "status", "duration_ms", "tenant", "app", "client_ip")


def scrub(text: str) -> str:
    """`text` with anything shaped like a token or key replaced by [redacted]."""
    return _SECRET_SHAPES.sub("[redacted]", text)


class JsonFormatter(logging.Formatter):
    """A log record as one JSON line."""

    def format(self, record: logging.LogRecord) -> str:
        """Render `record` with timestamp, level, logger, message, request id and extras."""
        line: dict[str, Any] = {
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": scrub(record.getMessage()),
        }
        request_id = getattr(record, "request_id", None) or request_id_var.get()
        if request_id:
            line["request_id"] = request_id
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["error"] = scrub(self.formatException(record.exc_info))
        return json.dumps(line, ensure_ascii=False, default=str)


def configure_logging(level: str = "info") -> None:
    """Send every logger (uvicorn's too) to stderr as JSON lines."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
    # The access log is api/middleware/access_log.py; uvicorn's would log query strings.
    logging.getLogger("uvicorn.access").disabled = True
