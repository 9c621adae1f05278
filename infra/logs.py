"""Structured logs: one JSON object per line on stderr, each with the request id.

What may be logged is decided where a line is written (the access log writes the route
template, never the path's query, body, headers or keys); as a second line of defence
the formatter masks anything shaped like a role token, an API key or a playing card.

Every line written while a request (or a worker's task) is handled also carries what it
concerns — `session_id`, `campaign_id`, `job_id`, and in workers `task_id`, `task`,
`tenant` — from the current log context: the access log opens one per request (reading
the route's path parameters), and code that learns which session or campaign a request
is about (a GraphQL resolver, say) adds it with `annotate()`. With tracing on, lines
also carry the current `trace_id` and `span_id`.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import re
import sys
import time
from collections.abc import Callable, Mapping
from contextvars import ContextVar, Token
from typing import Any

import orjson
from opentelemetry import trace

request_id_var: ContextVar[str | None] = ContextVar("daedalus_request_id", default=None)

# A line break inside a token, as a wrapped message has it (graphql-core prints a long
# query line as several, each after a "  | " gutter): a token is masked across one.
_BREAK = r"(?:[ \t]*\r?\n[ \t|]*)?"
_RUN = rf"(?:[A-Za-z0-9_-]{_BREAK}){{15,}}[A-Za-z0-9_-]"  # 16+ token characters
# Role tokens (v1.<payload>.<mac>), API keys (dk_...), bearer credentials, and playing
# card labels (Q♥: a face-down card's identity is hidden information).
_SECRET_SHAPES = re.compile(
    rf"v{_BREAK}1{_BREAK}\.{_BREAK}{_RUN}{_BREAK}\.{_BREAK}{_RUN}"
    rf"|d{_BREAK}k{_BREAK}_{_BREAK}{_RUN}|(?i:bearer\s+)\S+"
    r"|(?:10|[2-9AJQK])[♠♥♣♦]"
)
# Fields a log call may add with `extra=`; anything else stays out of the line.
FIELDS = ("method", "route", "status", "duration_ms", "tenant", "app", "client_ip")
# Fields of the log context: what the request or task concerns. Ids only, never tokens.
CONTEXT_FIELDS = ("session_id", "campaign_id", "job_id", "task_id", "task", "tenant")
# Route path parameters logged under their own name (`/v1/sessions/{session_id}`, ...).
PATH_FIELDS = ("session_id", "campaign_id", "job_id")
_MAX_VALUE = 128  # a context value longer than this is cut (ids are short)
CAMPAIGN_SUBJECT = "campaign:"  # role tokens for a campaign name `campaign:<id>` as session


def _scrub(text: str) -> str:
    return _SECRET_SHAPES.sub("[redacted]", text)


# Most lines repeat their message and ids (an access line per request, a few routes):
# short texts are scrubbed once and looked up after that, long ones every time.
_scrub_short = functools.lru_cache(maxsize=1024)(_scrub)
_SHORT = 200


def scrub(text: str) -> str:
    """`text` with anything shaped like a token, a key or a card replaced by [redacted]."""
    return _scrub_short(text) if len(text) <= _SHORT else _scrub(text)


def _clean(value: object) -> str:
    return scrub(str(value))[:_MAX_VALUE]


class LogContext:
    """What the current request or task concerns, shown on each of its log lines.

    Mutable on purpose: one is made per request and set in a context variable; the
    copies of the context that threadpool calls and tasks get still refer to this one
    object, so what they annotate shows on the request's access line too.
    """

    __slots__ = ("_fields", "_params")

    def __init__(
        self,
        fields: Mapping[str, object] | None = None,
        params: Callable[[], Mapping[str, Any]] | None = None,
    ) -> None:
        self._params = params  # read when a line is written: routing sets them late
        self._fields: dict[str, str] = {}
        self.update(**(fields or {}))

    def update(self, **fields: object) -> None:
        """Add fields (names outside CONTEXT_FIELDS and None values are ignored)."""
        for name, value in fields.items():
            if name in CONTEXT_FIELDS and value is not None:
                self._fields[name] = _clean(value)

    def fields(self) -> dict[str, str]:
        """The fields to log: the route's path parameters in PATH_FIELDS, then annotations."""
        found: dict[str, str] = {}
        params = self._params() if self._params is not None else {}
        for name in PATH_FIELDS:
            value = params.get(name)
            if value is not None:
                found[name] = _clean(value)
        found.update(self._fields)
        return found


log_context_var: ContextVar[LogContext | None] = ContextVar("daedalus_log_context", default=None)


def open_context(
    params: Callable[[], Mapping[str, Any]] | None = None,
) -> Token[LogContext | None]:
    """Start a fresh log context for a request (its path parameters are read from
    `params` as each line is written); reset it with `close_context`."""
    return log_context_var.set(LogContext(params=params))


def close_context(token: Token[LogContext | None]) -> None:
    """End the log context `open_context` started."""
    log_context_var.reset(token)


def annotate(
    *, session_id: str | None = None, campaign_id: str | None = None, job_id: str | None = None
) -> None:
    """Tag the current request's log lines (its access line too) with what it concerns.

    A no-op outside a request. A `session_id` naming a campaign (`campaign:<id>`, the
    subject of campaign role tokens) is logged as its `campaign_id`.
    """
    context = log_context_var.get()
    if context is None:
        return
    if session_id is not None and session_id.startswith(CAMPAIGN_SUBJECT):
        campaign_id, session_id = session_id.removeprefix(CAMPAIGN_SUBJECT), None
    context.update(session_id=session_id, campaign_id=campaign_id, job_id=job_id)


def context_fields() -> dict[str, str]:
    """The current log context's fields (empty outside a request or task)."""
    context = log_context_var.get()
    return context.fields() if context is not None else {}


_LOGGED = "_daedalus_logged"


def mark_logged(exc: BaseException) -> None:
    """Note that `exc` was logged with its request's fields: the server's line is dropped."""
    with contextlib.suppress(AttributeError, TypeError):
        setattr(exc, _LOGGED, True)


class DropRelogged(logging.Filter):
    """Drop the server's traceback line for an error the access log has logged already."""

    def filter(self, record: logging.LogRecord) -> bool:
        """False for a uvicorn line about an exception `mark_logged` has seen."""
        exc = record.exc_info[1] if record.exc_info else None
        return not (record.name.startswith("uvicorn") and getattr(exc, _LOGGED, False))


def _json_line(line: dict[str, Any]) -> str:
    """A log line's dict as compact JSON (values JSON lacks written with `str`)."""
    try:
        return orjson.dumps(line, default=str).decode()
    except TypeError:  # what orjson refuses (an integer past 64 bits): the standard library
        return json.dumps(line, ensure_ascii=False, default=str, separators=(",", ":"))


class JsonFormatter(logging.Formatter):
    """A log record as one JSON line (a line per request: kept cheap, see
    bench/request_path.py)."""

    _second = -1
    _stamp = ""

    def timestamp(self, created: float) -> str:
        """`created` (seconds since the epoch) as an ISO 8601 UTC time to the millisecond."""
        second = int(created)
        if second != self._second:  # one strftime a second
            self._second = second
            self._stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        return f"{self._stamp}.{int((created - second) * 1000):03d}Z"

    def line(
        self,
        created: float,
        level: str,
        logger: str,
        message: str,
        fields: Mapping[str, object],
        request_id: str | None = None,
    ) -> dict[str, Any]:
        """A line's fields: time, level, logger, message, request id, the log context,
        `fields` (those named in FIELDS and not None) and, with tracing on, the span."""
        line: dict[str, Any] = {
            "timestamp": self.timestamp(created),
            "level": level,
            "logger": logger,
            "message": scrub(message),
        }
        request_id = request_id or request_id_var.get()
        if request_id:
            line["request_id"] = request_id
        line.update(context_fields())
        for name in FIELDS:
            value = fields.get(name)
            if value is not None:
                line[name] = value
        span = trace.get_current_span().get_span_context()
        if span.is_valid:  # only with tracing on (infra/telemetry.py)
            line["trace_id"] = trace.format_trace_id(span.trace_id)
            line["span_id"] = trace.format_span_id(span.span_id)
        return line

    def format(self, record: logging.LogRecord) -> str:
        """Render `record` with timestamp, level, logger, message, ids, context and extras."""
        line = self.line(
            record.created,
            record.levelname.lower(),
            record.name,
            record.getMessage(),
            record.__dict__,
            getattr(record, "request_id", None),
        )
        if record.exc_info:
            line["error"] = scrub(self.formatException(record.exc_info))
        return _json_line(line)


class JsonLines(logging.StreamHandler):  # type: ignore[type-arg]
    """The service's handler: JsonFormatter's lines on a stream, one line per record.

    `write` puts a line on the stream without a LogRecord: the access log writes one
    per request, and a record costs more to make and route than the line does to
    render. `direct` says when a logger's lines may take that path.
    """

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self.formatter: JsonFormatter = JsonFormatter()
        self.addFilter(DropRelogged())

    def write(self, level: int, logger: str, message: str, fields: Mapping[str, object]) -> None:
        """Write one line as `format` would for a record of these, without an exception."""
        try:
            line = self.formatter.line(
                time.time(), logging.getLevelName(level).lower(), logger, message, fields
            )
            text = _json_line(line) + self.terminator
            with self.lock:  # type: ignore[union-attr]
                self.stream.write(text)
                self.stream.flush()
        except Exception:  # as `emit` does: a line that cannot be written is reported
            self.handleError(logging.makeLogRecord({"name": logger, "msg": message}))


def direct(logger: logging.Logger, level: int) -> JsonLines | None:
    """The JsonLines handler `logger`'s lines at `level` reach, when it is the only one
    they reach and nothing filters them on the way (DropRelogged passes every line
    without an exception); otherwise None, and a line must go as a record."""
    if logger.filters:
        return None
    found: logging.Handler | None = None
    current: logging.Logger | None = logger
    while current is not None:
        for handler in current.handlers:
            if found is not None:
                return None
            found = handler
        current = current.parent if current.propagate else None
    if (
        type(found) is not JsonLines
        or found.level > level
        or any(type(f) is not DropRelogged for f in found.filters)
    ):
        return None
    return found


def configure_logging(level: str | int = "info") -> None:
    """Send every logger (uvicorn's and Celery's too) to stderr as JSON lines."""
    handler = JsonLines(sys.stderr)
    # The JSON lines show none of the thread and process names each record would look up.
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper() if isinstance(level, str) else level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "celery", "celery.task"):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
    # The access log is api/middleware/access_log.py; uvicorn's would log query strings.
    logging.getLogger("uvicorn.access").disabled = True
