"""Browser origins: which web pages may call the API (CORS) and open its WebSocket.

An origin is `scheme://host[:port]` as a browser sends it in the `Origin` header:
lower-case, no path, no trailing slash, the default port left out. Configured origins
are normalised the same way, so `https://VTT.example.com:443/` matches what Chromium
sends for a page on `https://vtt.example.com`.
"""

from __future__ import annotations

from urllib.parse import urlsplit

ANY = "*"
_DEFAULT_PORTS = {"http": 80, "https": 443}


class InvalidOrigin(ValueError):
    """A configured origin that no browser would send."""


def normalize_origin(origin: str) -> str:
    """`origin` as a browser sends it; InvalidOrigin when it is not an origin."""
    text = origin.strip()
    if text == ANY:
        return ANY
    parts = urlsplit(text)
    if parts.scheme.lower() not in _DEFAULT_PORTS or not parts.hostname:
        raise InvalidOrigin(f"{origin!r} is not an origin (http[s]://host[:port])")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise InvalidOrigin(f"{origin!r} is not an origin: no path, query or credentials")
    try:
        port = parts.port
    except ValueError:
        raise InvalidOrigin(f"{origin!r} has an invalid port") from None
    scheme = parts.scheme.lower()
    host = parts.hostname
    if ":" in host:  # an IPv6 literal keeps its brackets
        host = f"[{host}]"
    suffix = "" if port is None or port == _DEFAULT_PORTS[scheme] else f":{port}"
    return f"{scheme}://{host}{suffix}"


def parse_origins(raw: str | None) -> tuple[str, ...]:
    """The origins of a setting: comma- or space-separated, normalised, de-duplicated."""
    if not raw:
        return ()
    found: dict[str, None] = {}
    for item in raw.replace(",", " ").split():
        found[normalize_origin(item)] = None
    return tuple(found)


def origin_allowed(origin: str | None, allowed: tuple[str, ...] | frozenset[str]) -> bool:
    """Whether a request's `Origin` header is one of `allowed` (or `*` allows any)."""
    if ANY in allowed:
        return True
    if not origin:
        return False
    try:
        return normalize_origin(origin) in allowed
    except InvalidOrigin:
        return False
