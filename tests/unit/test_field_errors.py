"""A constraint on one input given with others is placed at that input (`field_error`):
the API names it (REST `errors[].loc`, GraphQL `Problem.field`), not the model."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from services.haze.action import ActionSpec, Attack
from services.haze.complex_round import Participant
from services.labyrinth.definition import MazeDefinition
from services.labyrinth.presets import STANDARD_DECK
from services.mazerats.play_requests import MoraleRequest

STANDARD = STANDARD_DECK.model_dump(mode="json")


@pytest.mark.parametrize(
    ("model", "data", "loc", "says"),
    [
        (Participant, {"spec": {"ability": 5}, "points": 6, "health": 5}, ("points",), "points"),
        (Attack, {"weapon": {"requisite": 3}}, ("strength",), "strength requisite"),
        (ActionSpec, {"ability": 5, "skill": 2, "unskilled": True}, ("skill",), "unskilled"),
        (
            ActionSpec,
            {"ability": 5, "attack": {"weapon": {"requisite": 3}}},
            ("attack", "strength"),
            "strength requisite",
        ),
        (MoraleRequest, {"group_size": 2, "defeated": 3}, ("defeated",), "group_size"),
        (MoraleRequest, {"max_hp": 2, "hp": 3}, ("hp",), "max_hp"),
        (MazeDefinition, {**STANDARD, "deck": {"right_path": 2}}, ("deck",), "at least 3 cards"),
        (
            MazeDefinition,
            {**STANDARD, "pool": "other_half", "deck": {"right_path": 5}},
            ("pool",),
            "standard26",
        ),
    ],
)
def test_the_input_to_fix_is_named(
    model: type[BaseModel], data: dict[str, Any], loc: tuple[str, ...], says: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        model.model_validate(data)
    errors = caught.value.errors()
    assert [e["loc"] for e in errors] == [loc], errors
    assert errors[0]["type"] == "value_error" and says in errors[0]["msg"]
