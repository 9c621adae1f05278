"""The Maze Rats use cases: the rules the API used to apply in its handlers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel

from services.dice import Rng, seeded_rng
from services.mazerats import MazeRatsError
from services.mazerats.levels import sigil_slots
from services.mazerats.play_requests import (
    HealRequest,
    InscribeRequest,
    MoraleRequest,
    TurnRequest,
)
from services.mazerats.requests import AttackRequest, OpposedSaveRequest, SaveRequest
from services.mazerats.usecases import (
    attack,
    healing,
    inscription,
    morale,
    opposed,
    save,
    slots_of,
    turn,
)


def test_morale_is_rolled_only_when_due_or_forced() -> None:
    """ "their leader or half of their group is defeated, they lose half of their HP"."""
    calm = morale(MoraleRequest(group_size=4, defeated=1), seeded_rng("m"))
    assert (calm.due, calm.morale) == (False, None)
    forced = morale(MoraleRequest(group_size=4, defeated=1, force=True), seeded_rng("m"))
    assert not forced.due and forced.morale is not None
    assert forced.morale.holds == forced.morale.save.success
    for due in (
        MoraleRequest(leader_defeated=True),
        MoraleRequest(group_size=4, defeated=2),
        MoraleRequest(max_hp=6, hp=3),
        MoraleRequest(unexpected_danger=True),
    ):
        assert morale(due, seeded_rng("m")).due


def test_a_bearer_has_the_slots_given_or_its_levels() -> None:
    assert slots_of(InscribeRequest(new=["A"], slots=3)) == 3
    assert slots_of(InscribeRequest(new=["A"], level=4)) == sigil_slots(4) == 2
    kept = inscription(InscribeRequest(borne=["Old"], new=["New"], level=1))
    assert (kept.kept, kept.lost) == (("New",), ("Old",))


def test_a_turn_checks_its_attack_before_its_actions() -> None:
    """ "Ranged attacks are prohibited in close combat"."""
    assert turn(TurnRequest.model_validate({"actions": ["attack", "move"]})).actions_spent == 2
    ranged = {"actions": ["attack"], "ranged": True, "in_close_combat": True}
    with pytest.raises(MazeRatsError) as refused:
        turn(TurnRequest.model_validate(ranged))
    assert refused.value.code == "ranged_in_close_combat"
    # Without an attack, being in close combat with a ranged weapon is no refusal.
    assert turn(TurnRequest.model_validate({**ranged, "actions": ["move"]})).actions_spent == 1


def test_the_same_seed_rolls_the_same_outcome() -> None:
    def twice(rule: Callable[[Any, Rng], BaseModel], request: BaseModel) -> None:
        assert rule(request, seeded_rng("s")) == rule(request, seeded_rng("s"))

    twice(save, SaveRequest(ability=1))
    twice(opposed, OpposedSaveRequest(attacker_bonus=1))
    twice(attack, AttackRequest(combat_bonus=2, ac=7))
    twice(healing, HealRequest.model_validate({"method": "bandage", "hp": 2, "max_hp": 8}))
