"""Checks: bands, tokens, taking half, exploding, and their exact odds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from services.maze.bands import BandName, band_for, tokens_awarded
from services.maze.checks import CheckSpec, resolve_check
from services.maze.errors import MazeError
from services.maze.exploding import p_at_least
from services.maze.group import resolve_group
from services.maze.loot import loot_odds, resolve_loot
from services.maze.odds import check_odds
from services.maze.opposed import Side, opposed_odds, resolve_opposed
from services.maze.rules import MazeRules
from services.maze.traits import CheckKind
from tests.unit.maze.scripted import ScriptedRng


@pytest.mark.parametrize(
    ("margin", "band"),
    [
        (9, BandName.INCREDIBLE_SUCCESS),
        (30, BandName.INCREDIBLE_SUCCESS),
        (8, BandName.MAJOR_SUCCESS),
        (5, BandName.MAJOR_SUCCESS),
        (4, BandName.SUCCESS),
        (1, BandName.SUCCESS),
        (0, BandName.SMALL_SUCCESS),
        (-1, BandName.FAILURE),
        (-4, BandName.FAILURE),
        (-5, BandName.MISERABLE_FAILURE),
        (-8, BandName.MISERABLE_FAILURE),
        (-9, BandName.CATASTROPHIC_FAILURE),
    ],
)
def test_bands_follow_the_chart_exactly(margin: int, band: BandName) -> None:
    """Chart: "Incredible success | +9 or more over ... Catastrophic failure | -9 or more
    under"."""
    assert band_for(margin).name is band


def test_failures_award_one_one_and_two_adversity_tokens() -> None:
    """ "If you fail a roll, you will be granted adversity token(s)" — chart: 1, 1, 2."""
    assert tokens_awarded(BandName.FAILURE) == 1
    assert tokens_awarded(BandName.MISERABLE_FAILURE) == 1
    assert tokens_awarded(BandName.CATASTROPHIC_FAILURE) == 2
    assert tokens_awarded(BandName.SMALL_SUCCESS) == 0


def test_the_exploding_die_repeats_and_adds_the_modifier_once() -> None:
    """ "if you roll the highest number on that die, you may roll it again and add that to
    your total calculated score, but only add the skill modifier once." """
    outcome = resolve_check(CheckSpec(die=6, modifier=2, dc=30), ScriptedRng([6, 6, 3]))
    assert outcome.score == 6 + 6 + 3 + 2
    assert [t.flags for t in outcome.dice] == [("exploded",), ("exploded",), ()]


def test_a_catastrophic_failure_awards_two_tokens() -> None:
    """Chart: "Catastrophic failure | -9 or more under | 2"."""
    outcome = resolve_check(CheckSpec(die=6, modifier=0, dc=12), ScriptedRng([2]))
    assert outcome.band is BandName.CATASTROPHIC_FAILURE and outcome.tokens_awarded == 2


@pytest.mark.parametrize("kind", [CheckKind.SNAP, CheckKind.LOOT, CheckKind.GROUP])
def test_tokens_are_refused_on_snap_loot_and_group_checks(kind: CheckKind) -> None:
    """ "can be added to the total of any roll that is not a snap roll, loot roll, or group
    roll." """
    with pytest.raises(MazeError) as caught:
        resolve_check(CheckSpec(die=8, modifier=0, dc=5, kind=kind), ScriptedRng([3]), tokens=1)
    assert caught.value.code == "tokens_not_allowed"


def test_taking_half_succeeds_when_half_plus_modifier_meets_the_dc() -> None:
    """ "if half of their die plus any modifier is more than or equal to the DC, they can
    automatically have a success." """
    outcome = resolve_check(CheckSpec(die=8, modifier=2, dc=6), ScriptedRng([]), take_half=True)
    assert outcome.score == 6 and outcome.band is BandName.SUCCESS
    with pytest.raises(MazeError) as caught:
        resolve_check(CheckSpec(die=8, modifier=2, dc=7), ScriptedRng([]), take_half=True)
    assert caught.value.code == "half_below_dc"


def test_the_level_of_taking_half_is_a_success_by_default_and_a_setting() -> None:
    """ "they can automatically have a success": by default the chart's Success, never more
    without a roll (d12+6 vs DC 3 would be +9, Incredible, by its margin)."""
    spec = CheckSpec(die=12, modifier=6, dc=3)
    assert resolve_check(spec, ScriptedRng([]), take_half=True).band is BandName.SUCCESS
    margin = resolve_check(
        spec,
        ScriptedRng([]),
        take_half=True,
        rules=MazeRules.model_validate({"half_level": "margin"}),
    )
    assert margin.band is BandName.INCREDIBLE_SUCCESS
    rules = MazeRules.model_validate({"half_level": "small_success"})
    outcome = resolve_check(spec, ScriptedRng([]), take_half=True, rules=rules)
    assert outcome.band is BandName.SMALL_SUCCESS


def test_taking_half_is_refused_on_snap_checks() -> None:
    """ "On normal rolls and damage rolls, a player can choose to take half"."""
    with pytest.raises(MazeError) as caught:
        spec = CheckSpec(die=12, modifier=4, dc=5, kind=CheckKind.SNAP)
        resolve_check(spec, ScriptedRng([]), take_half=True)
    assert caught.value.code == "half_not_allowed"


def test_p_exploding_d6_plus_2_reaches_10_is_five_thirty_sixths() -> None:
    """ "EXPLODING" DIE: a 6 then 2+ (5/36); by hand: P(X ≥ 8) = (1/6)·(5/6)."""
    assert p_at_least(6, 8) == Fraction(5, 36)
    odds = check_odds(CheckSpec(die=6, modifier=2, dc=10))
    assert odds.success == Fraction(5, 36)


def test_band_odds_of_a_d10_plus_2_against_dc_6_match_hand_calculation() -> None:
    """Chart bands for 1d10!+2 ≥ 6: margin = X − 4. Small success X=4: 1/10; Success X in
    5..8: 4/10; Major X in 9..12: 9 (1/10), 10 then 1 or 2 (2/100) = 12/100; Incredible
    X ≥ 13: 8/100; Failure X in 1..3: 3/10."""
    odds = check_odds(CheckSpec(die=10, modifier=2, dc=6))
    assert odds.bands[BandName.SMALL_SUCCESS] == Fraction(1, 10)
    assert odds.bands[BandName.SUCCESS] == Fraction(4, 10)
    assert odds.bands[BandName.MAJOR_SUCCESS] == Fraction(12, 100)
    assert odds.bands[BandName.INCREDIBLE_SUCCESS] == Fraction(8, 100)
    assert odds.bands[BandName.FAILURE] == Fraction(3, 10)
    assert odds.success == Fraction(7, 10)
    assert sum(odds.bands.values()) == 1


def test_taking_half_beats_rolling_when_rolling_could_fail() -> None:
    """TAKING HALF: "automatically have a success" — a d10+2 against DC 6 fails 3/10."""
    half = check_odds(CheckSpec(die=10, modifier=2, dc=6)).half
    assert half is not None and half.allowed and half.beats_rolling
    assert half.band is BandName.SUCCESS  # 5 + 2 − 6 = +1
    assert half.p_roll_better == Fraction(20, 100)
    assert half.p_roll_worse == Fraction(4, 10)


def test_odds_agree_with_the_dice_engine() -> None:
    """ "use the die associated with that skill's ability and add or subtract the
    modifier" — as the notation 1d12!+3 ≥ 15."""
    from services.dice import probability

    report = probability("1d12!+3 >= 15")
    assert check_odds(CheckSpec(die=12, modifier=3, dc=15)).success == report.success


def test_a_pc_wins_a_tie_against_an_npc() -> None:
    """OPPOSED ROLL: "A tied score will favor either a PC (in the case of PC vs. NPC)"."""
    outcome = resolve_opposed(Side(die=8), Side(die=8, is_pc=False), ScriptedRng([4, 4]))
    assert outcome.winner == 0 and outcome.decided_by_tie_rule
    npc_first = resolve_opposed(Side(die=8, is_pc=False), Side(die=8), ScriptedRng([4, 4]))
    assert npc_first.winner == 1


def test_pcs_re_roll_a_tie() -> None:
    """OPPOSED ROLL: "in the case of PC vs. PC, will require a re-roll"."""
    outcome = resolve_opposed(Side(die=8), Side(die=8), ScriptedRng([4, 4, 2, 5]))
    assert outcome.rounds == ((4, 4), (2, 5)) and outcome.winner == 1


def test_opposed_odds_against_a_known_total_are_exact() -> None:
    """OPPOSED ROLL against an NPC who "has rolled a 5": d10+1 wins on 4+ (ties go to the
    PC): 7/10."""
    odds = opposed_odds(Side(die=10, modifier=1), Side(total=5, is_pc=False))
    assert odds.p_first_wins == Fraction(7, 10)
    assert odds.p_tie_per_round == Fraction(1, 10)


def test_group_checks_add_up_against_the_collective_dc() -> None:
    """GROUP CHECK: "a check made in a group to hit a collective DC. Each character rolls
    individually"."""
    members = [CheckSpec(die=6, modifier=1), CheckSpec(die=8, modifier=0)]
    outcome = resolve_group(members, 10, ScriptedRng([4, 5]))
    assert outcome.scores == (5, 5) and outcome.success
    majority = resolve_group(
        members, 5, ScriptedRng([1, 5]), MazeRules.model_validate({"group_mode": "majority"})
    )
    assert majority.success


def test_loot_class_comes_from_the_chart() -> None:
    """LOOT CHECK: "what class of loot (Common, Uncommon, Rare, Ultra, Legendary)"."""
    spec = CheckSpec(die=12, modifier=2, kind=CheckKind.LOOT)
    assert resolve_loot(spec, ScriptedRng([2])).loot_class == "Common"
    assert resolve_loot(spec, ScriptedRng([9])).loot_class == "Rare"
    assert resolve_loot(spec, ScriptedRng([12, 3])).loot_class == "Legendary"
    odds = loot_odds(spec)
    assert odds["Common"] == Fraction(2, 12)  # faces 1, 2 give 3, 4
    assert odds["Legendary"] == p_at_least(12, 15) == Fraction(10, 144)
    assert sum(odds.values()) == 1
