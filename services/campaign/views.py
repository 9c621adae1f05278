"""Per-viewer views of the state and the events: GM everything, the table the rest.

Players and spectators see the supplies only as a level, never a number ("The GM will
keep track of the general level of supplies"), nor the DCs of the rolls against Hunger,
Thirst and Exhaustion (which follow from the number), and never the reason the GM gave
for an adjustment. (That is presentation, not secrecy: every roll is public, so a
player who tracks each tick against the rules can reconstruct the stock; docs/RULES.md.)
Everything else — activities, rolls, effects, injuries, runs — is table
knowledge. Spectators see what players see (no hidden hands in the clearing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from services.campaign import events as ev
from services.campaign.clock import next_due_at
from services.campaign.codec import encode_event, encode_state
from services.campaign.rules import avoidance_dc
from services.campaign.state import CampaignState
from services.dice import recorded_dice

Role = Literal["gm", "player", "spectator"]
Level = Literal["plentiful", "adequate", "low", "scarce", "none"]
# Fields that carry a supplies number or the GM's words: never shown to the table.
_SECRET_EVENT_FIELDS: dict[type, tuple[str, ...]] = {
    ev.CampaignCreated: ("supplies",),
    ev.SuppliesAdjusted: ("delta", "before", "after", "reason", "supplies_max"),
    ev.DowntimePassed: (
        "supplies_before",
        "supplies_after",
        "supplies_gained",
        "supplies_eaten",
        "supplies_decayed",
        "supplies_max",
    ),
}


# Shown names that differ from the stored field's: one name has one type in every event
# type (`runner` is a runner's id everywhere), so a GraphQL client selects every event
# type in one document without aliases.
_SHOWN_AS: dict[type, dict[str, str]] = {
    ev.RunnerAdded: {"runner": "added"},
    ev.RunEnded: {"run": "run_id"},
    ev.BuddyLost: {"runners": "runner_ids"},
}


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: the GM, a player (by runner id) or a spectator."""

    role: Role
    runner: str | None = None

    @classmethod
    def gm(cls) -> Viewer:
        """The GM: sees everything."""
        return cls("gm")

    @classmethod
    def player(cls, runner: str) -> Viewer:
        """The player of this runner: sees the table."""
        return cls("player", runner)

    @classmethod
    def spectator(cls) -> Viewer:
        """A spectator: sees the public feed."""
        return cls("spectator")


GM = Viewer.gm()
SPECTATOR = Viewer.spectator()


def supplies_level(supplies: int, supplies_max: int) -> Level:
    """The general level of supplies: ≥75% plentiful, ≥50% adequate, ≥25% low, >0 scarce."""
    if 4 * supplies >= 3 * supplies_max:
        return "plentiful"
    if 2 * supplies >= supplies_max:
        return "adequate"
    if 4 * supplies >= supplies_max:
        return "low"
    return "scarce" if supplies > 0 else "none"


def _table_rules(rules: dict[str, Any]) -> dict[str, Any]:
    # The starting stock is, on most campaigns, the exact number at creation.
    return {k: v for k, v in rules.items() if k != "supplies_start"}


def view_state(state: CampaignState, viewer: Viewer) -> dict[str, Any]:
    """The campaign as this viewer may see it (JSON-ready)."""
    out = encode_state(state)
    out["choices"] = {runner: choice for runner, choice in out["choices"]}
    out["supplies_level"] = supplies_level(state.supplies, state.rules.supplies_max)
    out["season_over"] = state.season_over
    out["next_due_at"] = next_due_at(state)
    if viewer.role == "gm":
        out["avoidance_dc"] = avoidance_dc(state.rules, state.supplies)
        return out
    del out["supplies"]
    out["rules"] = _table_rules(out["rules"])
    out["viewer"] = viewer.runner
    return out


def view_event(event: ev.Event, viewer: Viewer) -> dict[str, Any] | None:
    """An event as this viewer may see it (None would hide it; every event is public in part)."""
    # The registered name (never a version-marked stored type, never the class's name).
    _, data = encode_event(event)
    renamed = _SHOWN_AS.get(type(event), {})
    data = {renamed.get(k, k): v for k, v in data.items()}
    out: dict[str, Any] = {"type": ev.EVENTS.name_of(event), **data}
    if viewer.role == "gm":  # everything, each roll's dice as every other viewer gets them
        if isinstance(event, ev.DiceRolled):
            _add_dice(out, event)
        return out
    for key in _SECRET_EVENT_FIELDS.get(type(event), ()):
        del out[key]
    match event:
        case ev.DiceRolled():
            mine = viewer.role == "player" and (
                viewer.runner == event.by or viewer.runner in event.to
            )
            if event.visibility != "everyone" and not mine:
                # Someone rolled, and that is all (the history stays contiguous).
                return {"type": out["type"], "by": event.by, "visibility": event.visibility,
                        "hidden": True}  # fmt: skip
            _add_dice(out, event)
        case ev.CampaignCreated():
            out["rules"] = _table_rules(out["rules"])
            out["supplies_level"] = supplies_level(event.supplies, event.rules.supplies_max)
        case ev.SuppliesAdjusted():
            out.update(_levels(event.before, event.after, event.supplies_max))
        case ev.DowntimePassed():
            out.update(_levels(event.supplies_before, event.supplies_after, event.supplies_max))
            _hide_avoidance_dcs(out)
    return out


def _add_dice(out: dict[str, Any], event: ev.DiceRolled) -> None:
    """Each die of the roll as /v1/dice/roll shows it, for a VTT's 3D dice."""
    dice = recorded_dice(event.expression, event.faces, event.total)
    if dice is not None:
        out["dice"] = dice


def _hide_avoidance_dcs(out: dict[str, Any]) -> None:
    """Drop the DC and band of every avoidance roll: the DC is a function of the supplies.

    The table sees the dice, the total and whether the effect came, as a GM would say
    "you go hungry" without naming the number; the level is all it learns of the stock.
    """
    for tick in out.get("runners", ()):
        for roll in tick.get("avoidance", ()):
            roll["check"].pop("dc", None)
            roll["check"].pop("band", None)


def _levels(before: int, after: int, supplies_max: int | None) -> dict[str, Any]:
    """Which way the supplies went and, when the maximum is known, the levels."""
    trend = "up" if after > before else "down" if after < before else "none"
    out: dict[str, Any] = {"supplies_trend": trend}
    if supplies_max is not None:
        out["supplies_level_before"] = supplies_level(before, supplies_max)
        out["supplies_level_after"] = supplies_level(after, supplies_max)
    return out
