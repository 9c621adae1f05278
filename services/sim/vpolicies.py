"""The built-in policies (`policies.py`) as array functions, for the vectorised loop.

Each answers the same four questions as its scalar form, for a whole batch of games at
once, with the same choices (tests/unit/sim checks each against its scalar form).
Actions are indices into LOCKED_ACTIONS; NO_ACTION is none. A policy registered only in
scalar form is played by the scalar loop (`game.py`).
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from services.labyrinth.vocab import LOCKED_ACTIONS, Action
from services.sim import policies
from services.sim.model import ACTION_INDEX, KIND_CODE
from services.sim.policies import PREFERENCE

NO_ACTION = -1
Ints = NDArray[np.int64]
# Greedy's preference by kind code.
RANK = np.zeros(4, dtype=np.int64)
for _kind, _code in KIND_CODE.items():
    RANK[_code] = PREFERENCE[_kind]


class VectorPolicy(Protocol):
    """A policy's decisions for a batch of games."""

    name: str
    acts: bool  # False: `action` always answers NO_ACTION, so the loop skips the phase

    def action(self, face_down: Ints, stuck: Ints, draw_left: Ints, free: Ints) -> Ints:
        """Per game, the index of the action to attempt (`free` is a bit set), or NO_ACTION."""
        ...

    def pick(self, first: NDArray[Any], second: NDArray[Any]) -> NDArray[np.bool_]:
        """Per game, whether to resolve the second of two revealed cards."""
        ...

    def bottom(self, held: NDArray[Any], valid: NDArray[np.bool_]) -> Ints:
        """Per game, which drawn card (a column of `held`) goes to the bottom."""
        ...

    def disarm(self) -> bool:
        """Whether to attempt to disarm a revealed trap."""
        ...


class Blind:
    """No actions; flip at random; always disarm."""

    name = "blind"
    acts = False

    def action(self, face_down: Ints, stuck: Ints, draw_left: Ints, free: Ints) -> Ints:
        """Never acts."""
        return np.full(len(face_down), NO_ACTION, dtype=np.int64)

    def pick(self, first: NDArray[Any], second: NDArray[Any]) -> NDArray[np.bool_]:
        """Never asked; the first card."""
        return np.zeros(len(first), dtype=np.bool_)

    def bottom(self, held: NDArray[Any], valid: NDArray[np.bool_]) -> Ints:
        """Never asked; the first card."""
        return np.zeros(len(held), dtype=np.int64)

    def disarm(self) -> bool:
        """Always tries."""
        return True


def _bit(action: Action) -> int:
    return 1 << ACTION_INDEX[action]


class Greedy:
    """`policies.Greedy` on arrays: the first useful free action, the best revealed card."""

    name = "greedy"
    acts = True

    def action(self, face_down: Ints, stuck: Ints, draw_left: Ints, free: Ints) -> Ints:
        """Careful Consideration, Scout Ahead, Boost Morale, It's Elementary, Forge a Path."""
        wants = [
            (Action.CAREFUL_CONSIDERATION, face_down >= 2),
            (Action.SCOUT_AHEAD, (face_down >= 1) & (draw_left >= 1)),
            (Action.BOOST_MORALE, stuck >= 1),
            (Action.ITS_ELEMENTARY, draw_left >= 1),
            (Action.FORGE_A_PATH, np.ones(len(free), dtype=np.bool_)),
        ]
        out = np.full(len(free), NO_ACTION, dtype=np.int64)
        for action, useful in reversed(wants):  # the first in priority order is set last
            out[useful & ((free & _bit(action)) != 0)] = ACTION_INDEX[action]
        return out

    def pick(self, first: NDArray[Any], second: NDArray[Any]) -> NDArray[np.bool_]:
        """The most preferred kind, the first on ties."""
        chosen: NDArray[np.bool_] = RANK[second] > RANK[first]
        return chosen

    def bottom(self, held: NDArray[Any], valid: NDArray[np.bool_]) -> Ints:
        """The least preferred kind, the first on ties."""
        rank = np.where(valid, RANK[held], 99)
        out: Ints = rank.argmin(axis=1)
        return out

    def disarm(self) -> bool:
        """Always tries."""
        return True


# By the scalar policy's class: a policy registered under a built-in name but of
# another class is not mistaken for the built-in one.
VECTOR_FORMS: dict[type, VectorPolicy] = {policies.Blind: Blind(), policies.Greedy: Greedy()}


def vector_form(policy: policies.Policy) -> VectorPolicy | None:
    """The array form of a scalar policy, if it has one."""
    return VECTOR_FORMS.get(type(policy))


assert len(LOCKED_ACTIONS) == 5
