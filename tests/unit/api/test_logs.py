"""JSON log lines: the request id, the allowed extras, and nothing shaped like a secret."""

from __future__ import annotations

import io
import json
import logging

from api.keys import new_key
from api.tables.tokens import issue_token
from infra.logs import (
    DropRelogged,
    JsonFormatter,
    JsonLines,
    annotate,
    close_context,
    context_fields,
    direct,
    mark_logged,
    open_context,
    request_id_var,
    scrub,
)


def record(message: str, **extra: object) -> logging.LogRecord:
    made = logging.LogRecord("daedalus.test", logging.INFO, __file__, 1, message, (), None)
    for name, value in extra.items():
        setattr(made, name, value)
    return made


def test_a_line_is_json_with_the_request_id_and_allowed_fields() -> None:
    token = request_id_var.set("req-1")
    try:
        line = json.loads(JsonFormatter().format(record("hi", route="/x", body="{...}")))
    finally:
        request_id_var.reset(token)
    assert line["request_id"] == "req-1" and line["route"] == "/x" and line["level"] == "info"
    assert "body" not in line and line["timestamp"].endswith("Z")


def test_tokens_and_keys_are_masked_even_if_a_message_carries_them() -> None:
    role_token = issue_token(b"k" * 32, "s1", "gm", 0, tenant="t")
    key = new_key()
    text = f"token {role_token} key {key} header Bearer abc.def"
    masked = scrub(text)
    assert role_token not in masked and key not in masked and "abc.def" not in masked
    assert json.loads(JsonFormatter().format(record(text)))["message"] == masked


def test_a_token_or_key_wrapped_over_lines_is_masked_too() -> None:
    role_token = issue_token(b"k" * 32, "s1", "gm", 0, tenant="t")
    key = "dk_" + "Zm9vYmFyYmF6cXV4LWtleS0xMjM0NTY3ODkw"  # fixed: no chance overlaps
    for secret in (role_token, key):
        for cut in range(1, len(secret)):
            # graphql-core wraps a long query line after 80 columns, under a "  | " gutter
            for gutter in ("\n", "\n  | ", " \r\n\t"):
                masked = scrub(f"1 | {{ session(token: {secret[:cut]}{gutter}{secret[cut:]}) }}")
                assert masked.count("[redacted]") == 1, (cut, masked)
                rest = masked.replace("[redacted]", "")
                assert secret[:cut][-4:] not in rest or cut < 4, masked
                assert secret[cut:][:4] not in rest or len(secret) - cut < 4, masked


def test_ordinary_text_across_lines_is_left_alone() -> None:
    text = "v1.2 shipped\n  | see dk_docs and version 1.23\nabcdefghijklmnopqrstuvwxyz"
    assert scrub(text) == text


def test_card_identities_are_masked_too() -> None:
    masked = scrub("KeyError: '10♦' after Q♥ and A♠ (c07)")
    assert "♦" not in masked and "♥" not in masked and "♠" not in masked and "c07" in masked


def test_a_request_context_logs_its_path_ids_and_annotations_only() -> None:
    params = {"session_id": "s1", "runner_id": "r9"}
    token = open_context(lambda: params)
    try:
        annotate(job_id="j1")
        line = json.loads(JsonFormatter().format(record("hi")))
    finally:
        close_context(token)
    assert line["session_id"] == "s1" and line["job_id"] == "j1" and "runner_id" not in line
    assert "session_id" not in json.loads(JsonFormatter().format(record("after")))


def test_a_campaign_subject_is_logged_as_a_campaign_and_values_are_scrubbed() -> None:
    role_token = issue_token(b"k" * 32, "s1", "gm", 0, tenant="t")
    token = open_context()
    try:
        annotate(session_id="campaign:c7")
        campaign = context_fields()
        annotate(session_id=role_token)  # a caller's mistake: still never logged
        mistaken = context_fields()
    finally:
        close_context(token)
    assert campaign == {"campaign_id": "c7"}
    assert mistaken["session_id"] == "[redacted]"
    annotate(session_id="s2")  # outside a request: nothing to tag, no error
    assert context_fields() == {}


def test_the_servers_line_for_an_error_already_logged_is_dropped() -> None:
    logged, fresh = RuntimeError("logged"), RuntimeError("fresh")
    mark_logged(logged)

    def server_line(exc: BaseException, name: str = "uvicorn.error") -> logging.LogRecord:
        made = record("Exception in ASGI application")
        made.name, made.exc_info = name, (type(exc), exc, None)
        return made

    keep = DropRelogged().filter
    assert not keep(server_line(logged))
    assert keep(server_line(fresh)) and keep(server_line(logged, "daedalus.access"))


def test_a_line_written_without_a_record_is_the_line_its_record_would_make() -> None:
    stream = io.StringIO()
    lines = JsonLines(stream)
    fields = {"method": "GET", "route": "/v1/x", "status": 200, "tenant": None, "body": "{}"}
    token, context = request_id_var.set("req-9"), open_context(lambda: {"session_id": "s1"})
    try:
        lines.write(logging.INFO, "daedalus.access", "GET /v1/x 200 Bearer abc", fields)
        made = record("GET /v1/x 200 Bearer abc", **fields)
        made.name = "daedalus.access"
        lines.emit(made)
    finally:
        close_context(context)
        request_id_var.reset(token)
    written, emitted = (json.loads(line) for line in stream.getvalue().splitlines())
    assert written.pop("timestamp")[:19] == emitted.pop("timestamp")[:19]
    assert written == emitted
    assert written["session_id"] == "s1" and written["message"] == "GET /v1/x 200 [redacted]"
    assert "tenant" not in written and "body" not in written


def test_lines_go_without_a_record_only_where_the_service_s_handler_is_the_only_one() -> None:
    root, logger = logging.getLogger(), logging.getLogger("daedalus.test.direct")
    handlers = root.handlers[:]
    lines = JsonLines(io.StringIO())
    try:
        root.handlers[:] = [lines]
        assert direct(logger, logging.INFO) is lines
        assert direct(logger, logging.DEBUG) is lines  # the caller checks the level
        lines.setLevel(logging.WARNING)
        assert direct(logger, logging.INFO) is None
        lines.setLevel(logging.NOTSET)
        logger.addFilter(DropRelogged())
        assert direct(logger, logging.INFO) is None
        logger.filters.clear()
        root.addHandler(logging.NullHandler())  # pytest's caplog, say
        assert direct(logger, logging.INFO) is None
    finally:
        root.handlers[:] = handlers
        logger.filters.clear()
