"""Every request gets an id: the client's `X-Request-ID` if it is sane, else a fresh one.

The id is echoed in the response's `X-Request-ID` and set for the logs of the request.
The access log's layer (api/middleware/access_log.py) applies it: one layer fewer on
every request than a middleware of its own.
"""

from __future__ import annotations

import itertools
import os
import re

from starlette.types import Message, Scope

HEADER = "x-request-id"
_HEADER = HEADER.encode()
_SANE = re.compile(r"[A-Za-z0-9._:-]{1,128}")


class _Ids:
    """Fresh ids: 16 random hex digits drawn once per process, then a counter (32 hex
    digits, like a UUID's; unique across processes, cheaper than a UUID per request)."""

    def __init__(self) -> None:
        self.prefix = ""
        self.counter = itertools.count()
        self.reset()

    def reset(self) -> None:
        """Draw this process's prefix (again in a forked child, which must not share it)."""
        self.prefix = os.urandom(8).hex()

    def next(self) -> str:
        return f"{self.prefix}{next(self.counter):016x}"


_IDS = _Ids()
os.register_at_fork(after_in_child=_IDS.reset)


def request_id_from(scope: Scope) -> str:
    """The client's id when it is short and plain, else a new random one."""
    for name, value in scope.get("headers", ()):
        if name == _HEADER:
            given: str = value.decode("latin-1")
            if _SANE.fullmatch(given):
                return given
            break
    return _IDS.next()


def echo_request_id(message: Message, request_id: str) -> None:
    """Set `x-request-id` on a response start, replacing any the app set (as Starlette's
    `MutableHeaders` would, without building one per response)."""
    headers = message.get("headers")
    if not isinstance(headers, list):
        headers = message["headers"] = list(headers or ())
    value = request_id.encode("latin-1")
    for i, (name, _) in enumerate(headers):
        if name == _HEADER:
            headers[i] = (_HEADER, value)
            headers[i + 1 :] = [h for h in headers[i + 1 :] if h[0] != _HEADER]
            return
    headers.append((_HEADER, value))
