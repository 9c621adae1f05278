"""XP, levels, max HP and sigil slots."""

from __future__ import annotations

import pytest

from services.mazerats import MazeRatsError
from services.mazerats.levels import (
    XP_TABLE,
    Feature,
    features_up_to,
    level_for_xp,
    max_hp,
    path_count,
    session_xp,
    sigil_slots,
    xp_for_level,
)
from services.mazerats.sigils import Overwrite, inscribe


def test_the_xp_table_matches_the_text() -> None:
    """'XP LVL Level Features: 2 2 Ability Score +1 ... 90 10 Gain an additional Sigil slot'"""
    assert [(r.xp, r.level) for r in XP_TABLE[1:]] == [
        (2, 2), (6, 3), (12, 4), (20, 5), (30, 6), (42, 7), (56, 8), (72, 9), (90, 10),
    ]  # fmt: skip
    assert features_up_to(10) == [
        Feature.ABILITY,
        Feature.ABILITY_OR_COMBAT,
        Feature.SIGIL_SLOT,
        Feature.ABILITY_AND_PATH,
        Feature.ABILITY_OR_COMBAT,
        Feature.SIGIL_SLOT,
        Feature.ABILITY,
        Feature.ABILITY_OR_COMBAT,
        Feature.SIGIL_SLOT,
    ]


def test_enough_xp_gains_a_level() -> None:
    """'When you have enough XP, gain a level'"""
    assert level_for_xp(0) == 1
    assert level_for_xp(1) == 1
    assert level_for_xp(2) == 2
    assert level_for_xp(41) == 6
    assert level_for_xp(90) == 10
    assert level_for_xp(500) == 10
    assert xp_for_level(7) == 42
    with pytest.raises(MazeRatsError):
        level_for_xp(-1)


def test_max_hp_starts_at_six_and_rises_by_two_a_level() -> None:
    """'You start with a max of 6 hit points ... Your max HP rises by 2 every level.'"""
    assert [max_hp(level) for level in (1, 2, 5, 10)] == [6, 8, 14, 24]


def test_sigil_slots_start_at_one_and_grow_at_levels_four_seven_and_ten() -> None:
    """'your sigil slots, which start at 1' and '12 4 Gain an additional Sigil slot'"""
    assert [sigil_slots(level) for level in range(1, 11)] == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4]


def test_a_second_path_joins_at_level_five() -> None:
    """'You will choose a second path at level 5.'"""
    assert path_count(4) == 1
    assert path_count(5) == 2


def test_session_xp_is_one_to_three_plus_one_for_clever_play_for_survivors() -> None:
    """'the GM gives 1 to 3 XP ... to each PC who survived the whole session. 1 bonus XP is
    awarded to PCs whose players were unusually clever.'"""
    assert session_xp(2, survived=True) == 2
    assert session_xp(3, survived=True, clever=True) == 4
    assert session_xp(3, survived=False, clever=True) == 0
    with pytest.raises(MazeRatsError):
        session_xp(4, survived=True)


def test_excess_sigils_are_overwritten_and_lost() -> None:
    """'If a PC gains more sigils than they have slots, the excess sigils are overwritten
    and lost.'"""
    result = inscribe(["Binding Fist"], ["Acid Gate"], slots=1)
    assert result.kept == ("Acid Gate",) and result.lost == ("Binding Fist",)
    kept_old = inscribe(["Binding Fist"], ["Acid Gate"], slots=1, overwrite=Overwrite.NEWEST)
    assert kept_old.kept == ("Binding Fist",)
    assert inscribe(["A"], ["B"], slots=2).lost == ()
