"""The GraphQL contract: the committed openapi/schema.graphql is the schema the app serves."""

from __future__ import annotations

from pathlib import Path

import pytest
from graphql import build_schema

from api.contracts import REGENERATE, SDL_FILE, graphql_sdl, main, stale
from api.graphql.schema import build_schema as app_schema
from infra.settings import Settings


def test_committed_sdl_is_what_the_code_generates() -> None:
    committed = SDL_FILE.read_text(encoding="utf-8") if SDL_FILE.exists() else ""
    assert committed == graphql_sdl(), (
        f"openapi/{SDL_FILE.name} is out of date with the GraphQL schema; "
        f"regenerate it with `{REGENERATE}` and commit the result"
    )


def test_production_serves_the_same_schema_as_the_committed_sdl() -> None:
    # Introspection is off in production: the committed file is all a client generator has.
    production = app_schema(Settings(environment="test", introspection=False))
    assert production.as_str() + "\n" == graphql_sdl()


def test_committed_sdl_is_a_valid_schema_document() -> None:
    parsed = build_schema(SDL_FILE.read_text(encoding="utf-8"))
    assert parsed.query_type is not None and parsed.query_type.name == "Query"
    assert parsed.subscription_type is not None


def test_the_check_names_a_stale_file_and_the_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stale_copy = tmp_path / SDL_FILE.name
    stale_copy.write_text("type Query { old: Int }\n", encoding="utf-8")
    monkeypatch.setattr("api.contracts.SDL_FILE", stale_copy)
    assert stale_copy in stale()
    assert main(["--check"]) == 1
    assert REGENERATE in capsys.readouterr().err
