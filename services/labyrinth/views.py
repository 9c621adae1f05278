"""Per-viewer views of the state: GM (everything), player (the table), spectator (public)."""

from __future__ import annotations

from typing import Any

from services.labyrinth.jsonable import jsonable
from services.labyrinth.state import MazeState
from services.labyrinth.vocab import ACTION_STAT


def gm_view(state: MazeState) -> dict[str, Any]:
    """Everything: zones in order with card identities, pending trap, every setting."""
    out: dict[str, Any] = jsonable(state)
    out["slots"] = dict(state.slots)
    return out


def _table(state: MazeState, slots: bool) -> dict[str, Any]:
    by_card = {card: slot for slot, card in state.slots.items()}
    river = []
    for card in state.river:
        item: dict[str, Any] = {"face_up": card in state.face_up}
        if card in state.face_up:
            c = state.cards[card]
            item.update(kind=c.kind.value, label=c.label, stuck=card in state.stuck)
        if slots:
            item["slot"] = by_card[card]
        river.append(item)
    held = [
        {"kind": state.cards[c].kind.value, "label": state.cards[c].label}
        | ({"slot": by_card[c]} if slots else {})
        for c in state.held
    ]
    d = state.definition
    return {
        "maze": None if d is None else {"name": d.name, "variant": d.variant, "dc": d.dc},
        "phase": state.phase,
        "round": state.round,
        "turn_order": list(state.order),
        "active": state.active,
        "party": [{"id": m.id, "name": m.name} for m in state.party],
        "asleep": dict(state.asleep),
        "out_of_play": sorted(state.out_of_play),
        "right_paths": state.right_paths,
        "monster_points": state.monster_points,
        "action_taken": state.action_taken,
        "locked_actions": sorted(a.value for a in state.locked),
        "removed_actions": sorted(a.value for a in state.unavailable),
        "river": river,
        "held": held,
        "deck_count": len(state.deck),
        "discard_count": len(state.discard),
        "removed_count": len(state.removed),
        "choice": None
        if state.choice is None
        else {"kind": state.choice.kind, "options": list(state.choice.options) if slots else []},
        "trap": None
        if state.trap is None
        else {"name": state.trap.entry.name, "dc": state.trap.dc, "text": state.trap.entry.text},
        "monster": state.monster,
        "combat_order": jsonable(state.combat_order),
        "outcome": state.outcome,
    }


# Each action's name (as a view's `checks` key) and the stat it rolls, read once.
_ACTION_STATS = tuple((action.value, stat) for action, stat in ACTION_STAT.items())


def player_view(state: MazeState, player: str) -> dict[str, Any]:
    """What a player at the table sees: face-down cards only as this deal's slot ids, and
    the player's own check for each action (the dice rolled against the maze's DC)."""
    profile = state.member(player).profile
    checks = {action: profile.expression(stat) for action, stat in _ACTION_STATS}
    return {"viewer": player, "checks": checks, **_table(state, slots=True)}


def spectator_view(state: MazeState) -> dict[str, Any]:
    """The public feed: the table without slot ids."""
    return _table(state, slots=False)
