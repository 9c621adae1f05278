"""Each event as a viewer may see it: GM everything; players and spectators the table's view.

Players and spectators never see internal card ids, deck order, or the identity of a
card the table has not seen; face-down cards appear only as their per-deal slot ids
(spectators do not even get those).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from services.labyrinth import events as ev
from services.labyrinth.jsonable import jsonable
from services.slotted import quick_init

Role = Literal["gm", "player", "spectator"]


@quick_init
@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: the GM, a player (by id) or a spectator."""

    role: Role
    player: str | None = None


GM = Viewer("gm")
SPECTATOR = Viewer("spectator")


def visible_card(card: ev.SlotCard, slots: bool) -> dict[str, Any]:
    """A card the table has seen: kind and label, and its slot id for players."""
    out: dict[str, Any] = {"kind": card.kind.value, "label": card.label}
    if slots:
        out["slot"] = card.slot
    return out


def _slot(slot: ev.RiverSlot, slots: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"face_up": slot.face_up}
    if slot.face_up:
        out.update(kind=slot.kind.value, label=slot.label)
    if slots:
        out["slot"] = slot.slot
    return out


_Public = Callable[[Any, bool], dict[str, Any]]


def _maze_started(e: ev.MazeStarted, s: bool) -> dict[str, Any]:
    d = e.definition
    return {
        "name": d.name,
        "variant": d.variant,
        "dc": d.dc,
        "deck_size": len(e.deck),
        "victory": jsonable(d.victory),
        "party": [{"id": m.id, "name": m.name} for m in e.party],
    }


def _moved(e: ev.RiverCardMovedByGm, s: bool) -> dict[str, Any]:
    # A face-down card leaves unseen: players learn only which slot emptied.
    if e.face_up:
        card = {"face_up": True, **visible_card(e.card, s)}
    else:
        card = {"face_up": False} | ({"slot": e.card.slot} if s else {})
    return {"card": card, "to": e.to, "reason": e.reason}


def _trap_overridden(e: ev.TrapOverridden, s: bool) -> dict[str, Any]:
    entry = e.entry
    return {
        "trap": entry.name,
        "effect": entry.effect.value,
        "text": entry.text,
        "dc": e.dc,
        "reason": e.reason,
    }


_PUBLIC: dict[type, _Public] = {
    ev.MazeStarted: _maze_started,
    ev.InitiativeRolled: lambda e, s: jsonable(e),
    ev.ActionsRemoved: lambda e, s: jsonable(e),
    ev.TurnStarted: lambda e, s: jsonable(e),
    ev.TurnSkipped: lambda e, s: jsonable(e),
    ev.DeckReshuffled: lambda e, s: {"cards": len(e.order)},
    ev.RiverDealt: lambda e, s: {
        "dealt": len(e.dealt),
        "river": [_slot(x, s) for x in e.slots],
    },
    ev.ActionAttempted: lambda e, s: jsonable(e),
    ev.RightPathsForged: lambda e, s: {"right_paths_added": len(e.cards)},
    ev.ScoutRevealed: lambda e, s: {
        "river_card": visible_card(e.river_card, s),
        "deck_card": visible_card(e.deck_card, s),
    },
    ev.CardsConsidered: lambda e, s: {"cards": [visible_card(c, s) for c in e.cards]},
    ev.ElementaryDrawn: lambda e, s: {"cards": [visible_card(c, s) for c in e.cards]},
    ev.ElementaryResolved: lambda e, s: {
        "bottom": visible_card(e.bottom, s),
        "shuffled_on_top": len(e.top),
    },
    ev.DeadEndRemoved: lambda e, s: {"card": visible_card(e.card, s)},
    ev.CardRevealed: lambda e, s: {"player": e.player, "card": visible_card(e.card, s)},
    ev.CardChosen: lambda e, s: {"player": e.player, "card": visible_card(e.card, s)},
    ev.RightPathScored: lambda e, s: jsonable(e),
    ev.DeadEndStuck: lambda e, s: {"card": visible_card(e.card, s)},
    ev.DeadEndsCleared: lambda e, s: {
        "cards": [visible_card(c, s) for c in e.cards],
        "destination": e.destination,
    },
    ev.MonsterCardAdded: lambda e, s: {"kind": "monster", "destination": e.destination},
    ev.MonsterPointScored: lambda e, s: jsonable(e),
    ev.EncounterStarted: lambda e, s: jsonable(e),
    ev.EncounterResolved: lambda e, s: jsonable(e),
    ev.MonsterCardRemoved: lambda e, s: {"kind": "monster", "zone": e.zone},
    ev.TrapRolled: lambda e, s: {
        "card": visible_card(e.card, s),
        "roll": jsonable(e.roll),
        "trap": e.entry.name,
        "effect": e.entry.effect.value,
        "text": e.entry.text,
        "dc": e.dc,
    },
    ev.DisarmAttempted: lambda e, s: jsonable(e),
    ev.TrapSprung: lambda e, s: {
        "trap": e.entry.name,
        "effect": e.entry.effect.value,
        "saves": jsonable(e.saves),
    },
    ev.PlayerFellAsleep: lambda e, s: jsonable(e),
    ev.PlayerWoke: lambda e, s: jsonable(e),
    ev.DeadEndPlaced: lambda e, s: {"card": visible_card(e.card, s)},
    ev.TurnEnded: lambda e, s: {"player": e.player, "discarded": len(e.discarded)},
    ev.RiverCleared: lambda e, s: {"discarded": len(e.discarded)},
    ev.RoundEnded: lambda e, s: jsonable(e),
    ev.ActionsUnlocked: lambda e, s: jsonable(e),
    ev.MazeEscaped: lambda e, s: jsonable(e),
    ev.MazeEnded: lambda e, s: jsonable(e),
    ev.DiceRolled: lambda e, s: {},  # per viewer: see _dice_rolled
    # GM overrides: the values they set and the GM's reason are the table's to see.
    ev.MemberOverridden: lambda e, s: jsonable(e),
    ev.TurnOverridden: lambda e, s: jsonable(e),
    ev.CardRevealedByGm: lambda e, s: {"card": visible_card(e.card, s), "reason": e.reason},
    ev.RiverCardMovedByGm: _moved,
    ev.ScoreOverridden: lambda e, s: jsonable(e),
    ev.ActionsOverridden: lambda e, s: jsonable(e),
    ev.TrapOverridden: _trap_overridden,
}


# Shown names that differ from the stored field's: one name has one type in every event
# type (`card` is a card everywhere; a GM's card id is `card_id`), so a GraphQL client
# selects every event type in one document without aliases.
_SHOWN_AS: dict[type, dict[str, str]] = {
    ev.MazeStarted: {"cards": "all_cards"},
    ev.DeckReshuffled: {"cards": "deck_size"},
    ev.RightPathsForged: {"cards": "card_ids"},
    ev.EncounterStarted: {"order": "combat_order"},
    ev.MonsterCardAdded: {"card": "card_id"},
    ev.MonsterCardRemoved: {"card": "card_id"},
    ev.RiverCardMovedByGm: {"to": "destination"},
}


def redact(event: ev.Event, viewer: Viewer) -> dict[str, Any] | None:
    """The viewer's version of an event (None would hide it; every event is public in part)."""
    # The registered name, never the class's: clients see the same `type` as the store.
    name = ev.EVENTS.name_of(event)
    if viewer.role == "gm":
        shown = _gm(event)
    elif isinstance(event, ev.DiceRolled):
        shown = _dice_rolled(event, viewer)
    else:
        shown = _PUBLIC[type(event)](event, viewer.role == "player")
    renamed = _SHOWN_AS.get(type(event))
    if renamed:
        shown = {renamed.get(k, k): v for k, v in shown.items()}
    return {"type": name, **shown}


# The GM's form of an event names the same count the table sees; the internal card ids
# come beside it (one key, one type for every viewer).
_GM_COUNTS: dict[type, str] = {ev.RiverDealt: "dealt", ev.TurnEnded: "discarded",
                               ev.RiverCleared: "discarded"}  # fmt: skip


def _gm(event: ev.Event) -> dict[str, Any]:
    out: dict[str, Any] = jsonable(event)
    key = _GM_COUNTS.get(type(event))
    if key is not None:
        out[f"{key}_cards"] = out[key]
        out[key] = len(out[key])
    return out


def _dice_rolled(e: ev.DiceRolled, viewer: Viewer) -> dict[str, Any]:
    """A table roll as this viewer may see it: whole, or only that someone rolled.

    A hidden roll still shows as an event (who rolled, and for whom), so every viewer's
    history stays contiguous; its expression, label and result are the GM's and its
    audience's only.
    """
    mine = viewer.role == "player" and (viewer.player == e.by or viewer.player in e.to)
    if e.visibility == "everyone" or mine:
        shown: dict[str, Any] = jsonable(e)
        return shown
    return {"by": e.by, "visibility": e.visibility, "hidden": True}
