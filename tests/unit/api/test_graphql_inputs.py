"""A GraphQL party member, generated from the REST body's model, becomes that body."""

from __future__ import annotations

from typing import Any

import pytest

from api.graphql.generate import chosen, input_type
from api.graphql.inputs import PartyMemberInput, ProfileInput, ProfileSystem, member_body
from api.problems import InvalidRequest
from api.sessions.requests import FiveEProfile, MemberSpec, TheMazeProfile
from services.labyrinth.profiles import CheckProfile


@pytest.mark.parametrize(
    ("profile", "body"),
    [
        (None, None),
        (ProfileInput(system=ProfileSystem.MAZE_RATS), "maze_rats"),
        (
            ProfileInput(checks=input_type(CheckProfile)(initiative="1d6")),
            {"initiative": "1d6", "disarm": "1d20"},
        ),
        (
            ProfileInput(five_e=input_type(FiveEProfile)(initiative=2, disarm=None)),
            {"initiative": 2, "system": "5e"},
        ),
        (
            ProfileInput(the_maze=input_type(TheMazeProfile)(modifiers=None)),
            {"system": "the_maze"},
        ),
    ],
)
def test_a_graphql_member_is_the_rest_bodys_member(profile: Any, body: Any) -> None:
    member = member_body(PartyMemberInput(id="p1", name="Ash", profile=profile))
    assert member == {"id": "p1", "name": "Ash", "profile": body}
    MemberSpec.model_validate(member).to_domain()


def test_a_oneof_member_chosen_by_true_is_refused_false_wherever_it_is_read() -> None:
    assert chosen({"manual": True}, "kind", "cadence") == {"kind": "manual"}
    assert chosen({"interval": {"every_seconds": 60}}, "kind", "cadence") == {
        "every_seconds": 60,
        "kind": "interval",
    }
    with pytest.raises(InvalidRequest) as refused:
        chosen({"manual": False}, "kind", "cadence")
    assert refused.value.errors[0]["loc"] == ["cadence", "manual"]
    assert refused.value.code == "invalid_request"
