"""`python -m api.keys new --app NAME --tenant T`: a fresh API key and its config entry.

The key is printed once and stored nowhere: only its SHA-256 digest goes into
`DAEDALUS_API_KEYS` (inline JSON, or the JSON file it names). A secret key (`dk_…`) is
for servers; `--publishable --origin URL …` makes a browser key (`dpk_…`) bound to those
origins and limited to what a player may do (api/publishable.py).
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from typing import Any

from api.clients import TENANT_PATTERN, key_digest
from infra.origins import InvalidOrigin, normalize_origin

KEY_PREFIX = "dk_"
PUBLISHABLE_PREFIX = "dpk_"


def new_key(publishable: bool = False) -> str:
    """A fresh random API key (256 bits); its prefix says its kind to a reader."""
    return (PUBLISHABLE_PREFIX if publishable else KEY_PREFIX) + secrets.token_urlsafe(32)


def config_entry(
    key: str, app: str, tenant: str, origins: list[str] | None = None
) -> dict[str, dict[str, Any]]:
    """The DAEDALUS_API_KEYS entry of `key` (publishable when it has origins)."""
    spec: dict[str, Any] = {"app": app, "tenant": tenant}
    if origins:
        spec |= {"kind": "publishable", "origins": origins}
    return {key_digest(key): spec}


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and print a new key and its config entry."""
    parser = argparse.ArgumentParser(prog="python -m api.keys")
    sub = parser.add_subparsers(dest="command", required=True)
    new = sub.add_parser("new", help="make a key for a client app in a tenant")
    new.add_argument("--app", required=True, help="the client app's name, e.g. foundry-module")
    new.add_argument("--tenant", required=True, help="the tenant whose sessions the key reaches")
    new.add_argument(
        "--publishable",
        action="store_true",
        help="a browser key: bound to --origin, limited to what a player may do",
    )
    new.add_argument(
        "--origin",
        action="append",
        default=[],
        help="an origin a publishable key may be used from (repeat for several)",
    )
    args = parser.parse_args(argv)
    if not TENANT_PATTERN.fullmatch(args.tenant):
        parser.error(f"--tenant must match {TENANT_PATTERN.pattern}")
    if args.publishable != bool(args.origin):
        parser.error("--publishable needs at least one --origin, and --origin needs --publishable")
    try:
        origins = [normalize_origin(o) for o in args.origin]
    except InvalidOrigin as exc:
        parser.error(str(exc))
    if "*" in origins:
        parser.error("a publishable key names its origins, not '*'")
    key = new_key(publishable=args.publishable)
    print(f"key (give it to the client app; it is not stored): {key}")
    print("add this entry to the DAEDALUS_API_KEYS JSON object:")
    print(json.dumps(config_entry(key, args.app, args.tenant, origins)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
