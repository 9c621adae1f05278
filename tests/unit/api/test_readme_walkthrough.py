"""The README's walk-through says "with this seed p1 acts first": the seed keeps its word."""

from __future__ import annotations

import json
import re
from pathlib import Path

from api.sessions.requests import CreateSession
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
