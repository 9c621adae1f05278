"""A profile's or a definition's dice expressions are refused when given if a roll can fail.

They are rolled in play: `1d20/(1d2-1)` as a stat used to be accepted, then fail
`division_by_zero` on half the TakeActions; `1d6/0` as a trap table's die made every
trap card unplayable. Sessions stored before the rule still load.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from services.dice import SimRng
from services.labyrinth import (
    ENCHANTED_FOREST_V2,
    CheckProfile,
    MazeDefinition,
    MazeState,
    PartyMember,
    StartMaze,
    Stat,
    decide,
    evolve,
)
from services.labyrinth.codec import decode_event, decode_state, encode_event, encode_state
from services.labyrinth.events import MazeStarted

STATS = ("STR", "DEX", "INT", "WIS", "CHA")
DIVIDES_BY_ZERO = "1d20/(1d2-1)"


def _errors(model: type[Any], data: dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(ValidationError) as refused:
        model.model_validate(data)
    return [(".".join(map(str, e["loc"])), e["msg"]) for e in refused.value.errors()]


def _definition(**changes: Any) -> dict[str, Any]:
    return {**ENCHANTED_FOREST_V2.model_dump(mode="json"), **changes}


@pytest.mark.parametrize(
    ("profile", "field"),
    [
        ({"stats": dict.fromkeys(STATS, "1d20") | {"STR": DIVIDES_BY_ZERO}}, "stats.STR"),
        ({"initiative": "1d6/(1d2-1)"}, "initiative"),
        ({"disarm": "1d20/0"}, "disarm"),
    ],
)
def test_a_profile_expression_that_can_divide_by_zero_is_refused_at_its_field(
    profile: dict[str, Any], field: str
) -> None:
    ((where, why),) = _errors(CheckProfile, profile)
    assert where == field
    assert "can fail when rolled (division_by_zero)" in why
    assert "can be 0" in why or "is 0" in why


def test_a_profile_expression_past_the_roller_limits_is_refused() -> None:
    huge = "999999999999*999999999999*999999999999"
    ((where, why),) = _errors(CheckProfile, {"disarm": huge})
    assert where == "disarm" and "(value_too_large)" in why


def test_a_profile_that_rolls_safely_is_kept_as_given() -> None:
    safe = {"stats": dict.fromkeys(STATS, "1d20/(2*1d2-3)"), "disarm": "max(1, 1d6-3)"}
    assert CheckProfile.model_validate(safe).disarm == "max(1, 1d6-3)"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"trap_table": {"die": "1d6/0", "entries": [{"low": 1, "high": 6, "name": "Pit"}]}},
         "trap_table.die"),
        ({"monster_table": {"entries": [
            {"low": 1, "high": 6, "name": "Ogre", "initiative": "1d20/0"}]}},
         "monster_table.entries.0.initiative"),
        ({"trap_table": {"entries": [
            {"low": 1, "high": 6, "name": "Pit", "damage": "1d12/(1d2-1)"}]}},
         "trap_table.entries.0.damage"),
        ({"monster_table": {"die": "1d6/(1d3-2)", "entries": [
            {"low": 1, "high": 6, "name": "Ogre"}]}},
         "monster_table.die"),
    ],
)  # fmt: skip
def test_a_definition_expression_that_can_divide_by_zero_is_refused_at_its_field(
    changes: dict[str, Any], field: str
) -> None:
    errors = _errors(MazeDefinition, _definition(**changes))
    assert errors[0][0] == field and "(division_by_zero)" in errors[0][1], errors


def test_a_check_in_a_table_is_still_refused_as_a_check() -> None:
    table = {"die": "1d6 >= 3", "entries": [{"low": 1, "high": 6, "name": "Pit"}]}
    ((where, why),) = _errors(MazeDefinition, _definition(trap_table=table))
    assert where == "trap_table.die" and why.endswith("must be a total, not a check")


def test_a_session_stored_before_the_rule_still_loads() -> None:
    """A MazeStarted (and a snapshot) holding an expression refused today was accepted
    when written: read back from the store, it loads as it was, so the session can still
    be viewed, overridden and ended."""
    events = decide(
        MazeState(),
        StartMaze(definition=ENCHANTED_FOREST_V2, party=(PartyMember(id="p1", name="Ash"),)),
        SimRng("stored"),
    )
    name, data = encode_event(events[0])
    assert name == "MazeStarted"
    data["party"][0]["profile"]["stats"]["STR"] = DIVIDES_BY_ZERO
    data["definition"]["trap_table"]["die"] = "1d6/0"
    event = decode_event(name, data)
    assert isinstance(event, MazeStarted)
    assert event.party[0].profile.stats[Stat.STR] == DIVIDES_BY_ZERO
    state = evolve(MazeState(), event)
    assert decode_state(encode_state(state)).maze.trap_table.die == "1d6/0"
    with pytest.raises(ValidationError, match="division_by_zero"):
        TypeAdapter(MazeStarted).validate_python(data)  # given anew, it is refused
