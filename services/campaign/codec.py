"""Events and state as JSON and back, for the event store: exact round trips."""

from __future__ import annotations

from typing import Any

from services.campaign.decide import decide
from services.campaign.events import EVENTS, Event
from services.campaign.evolve import evolve
from services.campaign.state import CampaignState, initial
from services.jsoncodec import JsonCodec
from services.store.sessions import folded

_CODEC: JsonCodec[Event, CampaignState] = JsonCodec(EVENTS, CampaignState)


def encode_event(event: Event) -> tuple[str, dict[str, Any]]:
    """(type name, JSON-ready fields) of an event."""
    return _CODEC.encode_event(event)


def decode_event(name: str, data: dict[str, Any]) -> Event:
    """The event of a stored type name and fields."""
    return _CODEC.decode_event(name, data)


def encode_state(state: CampaignState) -> dict[str, Any]:
    """The state as JSON (for snapshots)."""
    return _CODEC.encode_state(state)


def decode_state(data: dict[str, Any]) -> CampaignState:
    """A state from its JSON form."""
    return _CODEC.decode_state(data)


class CampaignAggregate:
    """The campaign clock bound for the session service (see services/store/sessions.py)."""

    name = "campaign"
    decide = staticmethod(decide)
    decided = staticmethod(folded(decide, evolve))
    evolve = staticmethod(evolve)
    encode_event = staticmethod(encode_event)
    decode_event = staticmethod(decode_event)
    encode_state = staticmethod(encode_state)
    decode_state = staticmethod(decode_state)

    @staticmethod
    def initial() -> CampaignState:
        """The state of a campaign before its first event."""
        return initial()
