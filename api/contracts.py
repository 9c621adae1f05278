"""The committed contract files, generated from the code: `python -m api.contracts`.

`openapi/openapi.yaml` (the REST contract, built by api/openapi) and
`openapi/schema.graphql` (the GraphQL SDL of the strawberry schema) are written together,
so after changing a route, a model or a GraphQL type one command brings both up to date.
`tests/contracts/` fails while either committed file differs from what this writes.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from api.graphql.schema import schema
from api.openapi import COMMITTED as OPENAPI_FILE
from api.openapi import build, to_yaml

SDL_FILE = OPENAPI_FILE.with_name("schema.graphql")
REGENERATE = "make contracts"  # i.e. .venv/bin/python -m api.contracts


def graphql_sdl() -> str:
    """The GraphQL schema as SDL, the way the committed file holds it."""
    return schema.as_str() + "\n"


def generated() -> dict[Path, str]:
    """Each contract file and the text the code generates for it."""
    return {OPENAPI_FILE: to_yaml(build()), SDL_FILE: graphql_sdl()}


def stale() -> list[Path]:
    """The committed contract files that differ from what the code generates."""
    return [
        path
        for path, text in generated().items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]


def main(argv: list[str] | None = None) -> int:
    """Write both files (or, with --check, list the stale ones and exit 1)."""
    parser = argparse.ArgumentParser(prog="python -m api.contracts", description=__doc__)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    args = parser.parse_args(argv)
    if args.check:
        outdated = stale()
        for path in outdated:
            print(f"{path.name} is out of date: run `{REGENERATE}`", file=sys.stderr)
        return 1 if outdated else 0
    for path, text in generated().items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
