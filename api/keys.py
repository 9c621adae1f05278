"""`python -m api.keys new --app NAME --tenant T`: a fresh API key and its config entry.

The key is printed once and stored nowhere: only its SHA-256 digest goes into
`DAEDALUS_API_KEYS` (inline JSON, or the JSON file it names).
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys

from api.clients import TENANT_PATTERN, key_digest

KEY_PREFIX = "dk_"


def new_key() -> str:
    """A fresh random API key (256 bits)."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


def config_entry(key: str, app: str, tenant: str) -> dict[str, dict[str, str]]:
    """The DAEDALUS_API_KEYS entry of `key`."""
    return {key_digest(key): {"app": app, "tenant": tenant}}


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and print a new key and its config entry."""
    parser = argparse.ArgumentParser(prog="python -m api.keys")
    sub = parser.add_subparsers(dest="command", required=True)
    new = sub.add_parser("new", help="make a key for a client app in a tenant")
    new.add_argument("--app", required=True, help="the client app's name, e.g. foundry-module")
    new.add_argument("--tenant", required=True, help="the tenant whose sessions the key reaches")
    args = parser.parse_args(argv)
    if not TENANT_PATTERN.fullmatch(args.tenant):
        parser.error(f"--tenant must match {TENANT_PATTERN.pattern}")
    key = new_key()
    print(f"key (give it to the client app; it is not stored): {key}")
    print("add this entry to the DAEDALUS_API_KEYS JSON object:")
    print(json.dumps(config_entry(key, args.app, args.tenant)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
