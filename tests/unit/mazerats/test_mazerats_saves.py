"""Saves, opposed saves, reactions, morale and initiative."""

from __future__ import annotations

from fractions import Fraction

import pytest

from services.chance import Chance
from services.dice import seeded_rng
from services.mazerats import MazeRatsError
from services.mazerats.encounters import (
    Side,
    morale_check_due,
    roll_initiative,
    roll_morale,
    roll_reaction,
    surprised_skips_first_turn,
)
from services.mazerats.opposed import TieRule, opposed_odds, roll_opposed
from services.mazerats.saves import Risk, roll_save, save_expression, save_odds


def test_a_save_adds_the_ability_and_one_for_the_path_and_needs_nine() -> None:
    """'The player rolls 2d ..., adds the appropriate ability, and +1 if their PC's Path
    covers the action. A total of 9 or greater succeeds.'"""
    assert save_expression(2) == "2d6+2 >= 9"
    for seed in map(str, range(40)):
        save = roll_save(seeded_rng(seed), ability=1, path_covers=True)
        assert save.bonus == 2
        assert save.total == sum(save.dice) + 2
        assert save.success == (save.total >= 9)


def test_save_odds_are_exact_fractions_by_hand() -> None:
    """'A total of 9 or greater succeeds.' 2d6 >= 9: 4+3+2+1 = 10 ways of 36."""
    assert save_odds(0) == Fraction(10, 36)
    assert save_odds(1) == Fraction(15, 36)  # 2d6 >= 8
    assert save_odds(1, path_covers=True) == Fraction(21, 36)  # 2d6 >= 7
    assert save_odds(3, path_covers=True) == Fraction(30, 36)  # 2d6 >= 5: 36 - 6
    assert save_odds(-1) == Fraction(6, 36)  # 2d6 >= 10


def test_ability_scores_never_rise_above_three() -> None:
    """'Ability scores may never rise higher than +3.'"""
    with pytest.raises(MazeRatsError) as err:
        save_odds(4)
    assert err.value.code == "ability_out_of_range"


def test_safe_tasks_succeed_and_absurd_tasks_fail_without_dice() -> None:
    """'Safe, easy tasks always succeed, absurdly difficult tasks always fail.'"""
    safe = roll_save(seeded_rng("s"), risk=Risk.SAFE)
    absurd = roll_save(seeded_rng("s"), ability=3, risk=Risk.ABSURD)
    assert safe.success and safe.automatic and safe.dice == ()
    assert not absurd.success and absurd.automatic


def test_defenders_win_ties_in_opposed_saves() -> None:
    """'both characters roll a save and try to beat the other's total. Defenders win ties'"""
    for seed in map(str, range(60)):
        result = roll_opposed(seeded_rng(seed), 0, 0)
        (only,) = result.rounds
        attacker_wins = only.attacker_total > only.defender_total
        assert result.winner == ("attacker" if attacker_wins else "defender")


def test_opposed_odds_at_equal_bonus_by_hand() -> None:
    """'Defenders win ties, or the save is rerolled.' Ties: sum of w² = 146 of 1296;
    the attacker wins half the rest, 575/1296; rerolling ties makes it 1/2."""
    odds = opposed_odds(0, 0)
    assert odds.tie == Chance.of(Fraction(146, 1296))
    assert odds.attacker == Chance.of(Fraction(575, 1296))
    assert odds.defender == Chance.of(Fraction(721, 1296))
    rerolled = opposed_odds(0, 0, TieRule.REROLL)
    assert rerolled.attacker == Chance.of(Fraction(1, 2))


def test_rerolled_ties_keep_rolling_until_the_totals_differ() -> None:
    """'or the save is rerolled.'"""
    results = [roll_opposed(seeded_rng(str(s)), 0, 0, TieRule.REROLL) for s in range(80)]
    assert any(len(r.rounds) > 1 for r in results)
    for r in results:
        assert all(x.attacker_total == x.defender_total for x in r.rounds[:-1])
        assert r.rounds[-1].attacker_total != r.rounds[-1].defender_total


def test_a_reaction_is_the_leaders_will_save() -> None:
    """'the party leader may make a WIL save to determine if they are cooperative or not.'"""
    for seed in map(str, range(20)):
        reaction = roll_reaction(seeded_rng(seed), leader_will=1)
        assert reaction.cooperative == reaction.save.success
        assert reaction.save.bonus == 1


def test_morale_is_due_when_the_leader_or_half_the_group_falls_or_half_hp_is_lost() -> None:
    """'(their leader or half of their group is defeated, they lose half of their HP, etc.)'"""
    assert morale_check_due(leader_defeated=True)
    assert morale_check_due(group_size=4, defeated=2)
    assert not morale_check_due(group_size=4, defeated=1, max_hp=6, hp=6)
    assert morale_check_due(max_hp=6, hp=3)
    assert not morale_check_due(max_hp=6, hp=4)


def test_an_npc_failing_its_morale_save_flees_or_surrenders() -> None:
    """'the GM may call for a WIL save to see if they flee or surrender.'"""
    for seed in map(str, range(20)):
        morale = roll_morale(seeded_rng(seed), will=0)
        assert morale.holds == morale.save.success


def test_surprise_gives_initiative_otherwise_a_random_side() -> None:
    """'If one group surprises another, it gains initiative and acts first. If not, pick
    which side has initiative randomly.'"""
    assert roll_initiative(seeded_rng("a"), surprised=Side.OPPONENTS).first is Side.PARTY
    firsts = {roll_initiative(seeded_rng(str(s))).first for s in range(20)}
    assert firsts == {Side.PARTY, Side.OPPONENTS}


def test_surprised_characters_failing_a_will_save_skip_their_first_turn() -> None:
    """'Surprised characters that fail a WIL save skip their first turn.'"""
    for seed in map(str, range(20)):
        save, skips = surprised_skips_first_turn(seeded_rng(seed))
        assert skips == (not save.success)


def test_save_odds_agree_with_the_dice_engine() -> None:
    """'A total of 9 or greater succeeds.' — the notation `2d6+N >= 9` gives the same odds."""
    from services.dice import probability

    for bonus in range(-3, 5):
        report = probability(save_expression(bonus))
        assert report.success == save_odds(min(bonus, 3), path_covers=bonus == 4)
