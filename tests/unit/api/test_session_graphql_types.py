"""Typed session and campaign events over GraphQL: one document selects every field of
every event type and view (no aliases: the server allows 8), and the schema has one
object type per stored event type, implementing the event interface."""

from __future__ import annotations

import pytest
from graphql import GraphQLInterfaceType, parse, validate

from services.campaign.events import EVENTS as CAMPAIGN_EVENTS
from services.labyrinth.events import EVENTS as LABYRINTH_EVENTS
from tests.graphql_shapes import _graphql, fragments, spread


@pytest.mark.parametrize(
    ("field", "payload"),
    [
        ("sessionEvents(id: $id)", "SessionEventPayload"),
        ("campaignEvents(id: $id)", "CampaignEventPayload"),
    ],
)
def test_one_document_selects_every_event_type_without_aliases(field: str, payload: str) -> None:
    document = f"subscription($id: ID!) {{ {field} {{ {spread(payload)} }} }}\n{fragments(payload)}"
    assert validate(_graphql(), parse(document)) == []


@pytest.mark.parametrize("view", ["LabyrinthTableView", "LabyrinthGmView", "CampaignStateView"])
def test_every_view_is_selectable_in_full(view: str) -> None:
    document = f"query {{ __typename }}\n{fragments(view)}"
    # Fragments are valid on their own (unused ones only break NoUnusedFragments).
    errors = [e for e in validate(_graphql(), parse(document)) if "never used" not in e.message]
    assert errors == []


@pytest.mark.parametrize(
    ("interface", "registry"),
    [("SessionEvent", LABYRINTH_EVENTS), ("CampaignEvent", CAMPAIGN_EVENTS)],
)
def test_each_stored_event_type_has_its_graphql_type(interface: str, registry: object) -> None:
    gql = _graphql()
    kind = gql.type_map[interface]
    assert isinstance(kind, GraphQLInterfaceType)
    members = {t.name for t in gql.get_possible_types(kind)}
    names = {r.name for r in registry.registrations}  # type: ignore[attr-defined]
    assert members == {f"{name}Event" for name in names}
    for member in members:
        fields = getattr(gql.type_map[member], "fields", {})
        assert {"version", "type"} <= set(fields)
