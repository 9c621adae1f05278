"""JSON log lines: the request id, the allowed extras, and nothing shaped like a secret."""

from __future__ import annotations

import json
import logging

from api.keys import new_key
from api.logs import JsonFormatter, request_id_var, scrub
from api.sessions.tokens import issue_token


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
