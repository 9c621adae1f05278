"""Player policies: what a party does on its turn, shared by the fast simulator and the engine.

A policy sees only what the table sees (counts of face-down cards, the kinds of revealed
cards, which actions are free) and answers four questions. Face-down cards are always
flipped uniformly at random: a policy that never peeks cannot prefer one.

To add a policy: implement `Policy` and call `register(MyPolicy())`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from services.labyrinth import Action, CardKind


@dataclass(frozen=True, slots=True)
class TurnView:
    """What the active player can see when deciding whether to act."""

    face_down: int
    stuck: int
    draw_left: int
    free_actions: frozenset[Action]


class Policy(Protocol):
    """Decisions a party makes; every method must be deterministic given its arguments."""

    name: str

    def action(self, view: TurnView) -> Action | None:
        """The locked action to attempt this turn (before flipping), or None."""
        ...

    def pick(self, kinds: Sequence[CardKind]) -> int:
        """Which revealed card to resolve (Scout Ahead, Careful Consideration)."""
        ...

    def bottom(self, kinds: Sequence[CardKind]) -> int:
        """Which drawn card goes to the bottom of the deck (It's Elementary)."""
        ...

    def disarm(self) -> bool:
        """Attempt to disarm a revealed trap (True) or let it go off."""
        ...


# Greedy's preference when it can choose: a Right Path scores; a trap may be disarmed;
# a Dead End only clogs the river; a Monster point brings an encounter closer.
PREFERENCE: dict[CardKind, int] = {
    CardKind.RIGHT_PATH: 3,
    CardKind.TRAP: 2,
    CardKind.DEAD_END: 1,
    CardKind.MONSTER: 0,
}


class Blind:
    """No actions; flip a uniformly random face-down card; always try to disarm."""

    name = "blind"

    def action(self, view: TurnView) -> Action | None:
        """Never acts."""
        return None

    def pick(self, kinds: Sequence[CardKind]) -> int:
        """Never asked (no actions); the first card."""
        return 0

    def bottom(self, kinds: Sequence[CardKind]) -> int:
        """Never asked (no actions); the first card."""
        return 0

    def disarm(self) -> bool:
        """Always tries."""
        return True


class Greedy:
    """Use the most informative free action, then flip; pick the best revealed card.

    Action priority: Careful Consideration (two face-down cards), Scout Ahead (a
    face-down card and a card to draw), Boost Morale (a Dead End is stuck), It's
    Elementary (a card to draw), Forge a Path. Waking a sleeper is never chosen.
    Among revealed cards: Right Path > Trap > Dead End > Monster (first on ties); the
    worst drawn card goes to the bottom. Traps are always disarmed.
    """

    name = "greedy"

    def action(self, view: TurnView) -> Action | None:
        """The first useful free action in priority order."""
        free = view.free_actions
        if Action.CAREFUL_CONSIDERATION in free and view.face_down >= 2:
            return Action.CAREFUL_CONSIDERATION
        if Action.SCOUT_AHEAD in free and view.face_down >= 1 and view.draw_left >= 1:
            return Action.SCOUT_AHEAD
        if Action.BOOST_MORALE in free and view.stuck >= 1:
            return Action.BOOST_MORALE
        if Action.ITS_ELEMENTARY in free and view.draw_left >= 1:
            return Action.ITS_ELEMENTARY
        if Action.FORGE_A_PATH in free:
            return Action.FORGE_A_PATH
        return None

    def pick(self, kinds: Sequence[CardKind]) -> int:
        """The most preferred kind, first on ties."""
        return max(range(len(kinds)), key=lambda i: (PREFERENCE[kinds[i]], -i))

    def bottom(self, kinds: Sequence[CardKind]) -> int:
        """The least preferred kind, first on ties."""
        return min(range(len(kinds)), key=lambda i: (PREFERENCE[kinds[i]], i))

    def disarm(self) -> bool:
        """Always tries."""
        return True


POLICIES: dict[str, Policy] = {}


def register(policy: Policy) -> Policy:
    """Make a policy available by name (to the simulator, the workers and the API)."""
    POLICIES[policy.name] = policy
    return policy


def get_policy(name: str) -> Policy:
    """A registered policy by name."""
    try:
        return POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}; known: {', '.join(sorted(POLICIES))}") from None


register(Blind())
register(Greedy())
