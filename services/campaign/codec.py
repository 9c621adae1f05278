"""Events and state as JSON and back, for the event store: exact round trips."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from services.campaign.decide import decide
from services.campaign.events import EVENT_TYPES, Event
from services.campaign.evolve import evolve
from services.campaign.state import CampaignState, initial

# One adapter per event class: decoding by the stored type name, never by guessing
# which member of the union a dict fits.
_EVENTS: dict[str, TypeAdapter[Any]] = {cls.__name__: TypeAdapter(cls) for cls in EVENT_TYPES}
_STATE: TypeAdapter[CampaignState] = TypeAdapter(CampaignState)


def encode_event(event: Event) -> tuple[str, dict[str, Any]]:
    """(type name, JSON-ready fields) of an event."""
    name = type(event).__name__
    data: dict[str, Any] = _EVENTS[name].dump_python(event, mode="json")
    return name, data


def decode_event(name: str, data: dict[str, Any]) -> Event:
    """The event of a stored type name and fields."""
    event: Event = _EVENTS[name].validate_python(data)
    return event


def encode_state(state: CampaignState) -> dict[str, Any]:
    """The state as JSON (for snapshots)."""
    data: dict[str, Any] = _STATE.dump_python(state, mode="json")
    return data


def decode_state(data: dict[str, Any]) -> CampaignState:
    """A state from its JSON form."""
    return _STATE.validate_python(data)


class CampaignAggregate:
    """The campaign clock bound for the session service (see services/store/sessions.py)."""

    name = "campaign"
    decide = staticmethod(decide)
    evolve = staticmethod(evolve)
    encode_event = staticmethod(encode_event)
    decode_event = staticmethod(decode_event)
    encode_state = staticmethod(encode_state)
    decode_state = staticmethod(decode_state)

    @staticmethod
    def initial() -> CampaignState:
        """The state of a campaign before its first event."""
        return initial()
