"""`python -m api.openapi > openapi/openapi.yaml`: print the REST contract as YAML."""

from __future__ import annotations

import sys

from api.openapi import build, to_yaml


def main() -> None:
    """Write the document to standard output."""
    sys.stdout.write(to_yaml(build()))


if __name__ == "__main__":
    main()
