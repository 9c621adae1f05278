"""The README's walk-throughs keep their word: the seed gives p1 the first turn, and every
JSON body they send is one the service takes."""

from __future__ import annotations

import json
import re
from pathlib import Path

from api.bodies import parse_model
from api.problems import InvalidRequest
from api.sessions.requests import CreateSession
from api.usecases.rows import ROWS
from api.usecases.table import UseCase
from services.dice import seeded_rng
from services.labyrinth import RollInitiative, StartMaze
from tests.unit.labyrinth.play import Game

README = Path(__file__).parents[3] / "README.md"


def test_the_readme_session_seed_gives_p1_the_first_turn_at_version_4() -> None:
    text = README.read_text(encoding="utf-8")
    body = re.search(
        r"/v1/sessions -H 'content-type: application/json' \\\s+-d '(\{.*?\})'", text, re.S
    )
    assert body is not None, "the walk-through's session body moved"
    request = CreateSession.model_validate(json.loads(body.group(1)))
    assert request.seed is not None and "with this seed p1 acts first" in text
    rng = seeded_rng(request.seed)
    game = Game()
    game.do(
        StartMaze(definition=request.maze(), party=tuple(m.to_domain() for m in request.party)), rng
    )
    game.do(RollInitiative(), rng)
    # The walk-through then reads p1's history "after version 4": the start's last event.
    assert game.state.active == "p1" and len(game.events) == 4


def _calls(text: str) -> list[tuple[str, str, str]]:
    """(method, path, JSON body) of each `curl $DAEDALUS/v1/... -d '{...}'` in the
    README's `sh` blocks (a body may span lines; `$VARIABLES` in the path become `x`)."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        joined = re.sub(r"\\\n\s*", " ", block)
        call = r"\$DAEDALUS(/v1/[^\s\"?]+)((?:(?!\$DAEDALUS)[^|])*?)-d '(\{.*?\})'"
        for match in re.finditer(call, joined, re.S):
            method = "PUT" if "-X PUT" in match.group(2) else "POST"
            found.append((method, re.sub(r"\$\w+", "x", match.group(1)), match.group(3)))
    return found


def _row_for(method: str, path: str) -> UseCase:
    for row in ROWS:
        if row.method != method:
            continue
        pattern = re.sub(r"\{[^}]+\}", r"[^/]+", row.path)
        if re.fullmatch(rf"/v1{pattern}", path):
            return row
    raise AssertionError(f"no use case serves {method} {path}")


def test_every_json_body_the_readme_sends_is_one_the_service_takes() -> None:
    calls = _calls(README.read_text(encoding="utf-8"))
    for method, path, body in calls:
        row = _row_for(method, path)
        model = row.body or row.request
        assert model is not None, path
        try:
            parse_model(body, model)
        except InvalidRequest as exc:
            raise AssertionError(f"{method} {path}: {exc.errors}") from None
    # Every walk-through body was found, the multi-line ones (a session, a runner) too.
    assert {"/v1/sessions", "/v1/campaigns/x/runners"} <= {path for _, path, _ in calls}
    assert len(calls) >= 12
