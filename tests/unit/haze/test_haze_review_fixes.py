"""Re-action ties, exhaustion bounds, empty complex rounds, cached effect dice, requests."""

from __future__ import annotations

from fractions import Fraction

import pytest
from pydantic import ValidationError

from services.dice import seeded_rng
from services.haze import (
    ActionSpec,
    AspectPool,
    ComplexAction,
    HazeRules,
    effect_distribution,
    hit_odds,
    play_round,
    resolve,
    resolve_reaction,
)
from services.haze.errors import NoParticipants, NoRelatedSkill, UnknownCombatant
from services.haze.initiative import Combatant, roll_initiatives
from services.haze.reaction import roll_reaction
from services.haze.requests import EffectOddsRequest, ReactionRequest

DEFENDER = HazeRules(reaction_tie="defender")
ATTACKER = HazeRules(reaction_tie="attacker")


def test_a_successful_defence_of_rate_zero_evades_a_blow_of_rate_zero_under_defender() -> None:
    """'If you reduce your attackers hit success to zero you completely evade the blow.'"""
    blow = resolve(ActionSpec(ability=5), 5)  # success rate 0
    dodge = resolve(ActionSpec(ability=4), 4)  # success, rate 0: takes off nothing
    assert dodge.success and dodge.success_rate == 0
    assert not resolve_reaction(blow, dodge, DEFENDER).hit
    assert resolve_reaction(blow, dodge, ATTACKER).hit  # the attacker wins ties


def test_both_tie_variants_agree_when_the_defence_fails_or_is_absent() -> None:
    """'the success of the defender counts against the success of the attacker' — a failed
    re-action is no success, so the blow lands in both variants."""
    blow = resolve(ActionSpec(ability=5), 5)
    failed = resolve(ActionSpec(ability=3), 9)
    for rules in (DEFENDER, ATTACKER):
        assert resolve_reaction(blow, failed, rules).hit
        assert resolve_reaction(blow, None, rules).hit


def test_the_defender_variant_lowers_the_exact_hit_chance_of_equal_targets_of_one() -> None:
    """'If you reduce your attackers hit success to zero you completely evade the blow.'"""
    # Both succeed only on a 1 with rate 0: under `defender` the blow lands only when the
    # defence fails (9/10 of the attacker's 1/10).
    assert hit_odds(ActionSpec(ability=1), ActionSpec(ability=1), DEFENDER) == Fraction(9, 100)
    assert hit_odds(ActionSpec(ability=1), ActionSpec(ability=1), ATTACKER) == Fraction(1, 10)


def test_an_aspect_pool_never_holds_more_than_its_health_score() -> None:
    """'The total expenditure of exhaustion points in a given round may not exceed the AE's
    health score'; a rest 'regains ... his relevant health score'."""
    with pytest.raises(ValidationError):
        AspectPool(health=3, points=9)
    with pytest.raises(ValidationError):
        AspectPool(health=3, points=3, spent=4)
    assert AspectPool(health=3, points=3).points == 3


def test_a_complex_round_with_no_participant_is_refused() -> None:
    """'he may roll one dice, per round' — a round needs someone to roll."""
    with pytest.raises(NoParticipants) as refused:
        play_round(ComplexAction(difficulty=5), [], seeded_rng("x"))
    assert refused.value.code == "no_participants"


def test_effect_distributions_are_cached() -> None:
    """'tens rolled are re-rolled and totalled' — the same dice give the same report."""
    assert effect_distribution(3) is effect_distribution(3)


def test_effect_dice_come_from_ability_and_skill_or_a_count() -> None:
    """'((Ability + skill)/2) + modifiers = Number of dice'"""
    assert EffectOddsRequest(ability=7, skill=4, modifiers=1).count() == 6
    assert EffectOddsRequest(dice=3).count() == 3
    # Unskilled: the skill counts as 0 ('at a minus three penalty' applies to the roll).
    unskilled = EffectOddsRequest(ability=7, unskilled=True, related_skill=True)
    assert unskilled.count() == 3
    with pytest.raises(NoRelatedSkill):
        EffectOddsRequest(ability=7, unskilled=True).count()
    with pytest.raises(ValidationError):
        EffectOddsRequest(dice=3, ability=7)


def test_the_initiative_penalty_lowers_the_re_action() -> None:
    """'the one with a success rate of four would have a minus one penalty to dodge or block
    re-action rolls against his attacker for that round (5 - 4 = 1).'"""
    body = ReactionRequest.model_validate(
        {
            "attack": {"ability": 8},
            "defence": {"ability": 5},
            "attacker_initiative": 5,
            "defender_initiative": 4,
        }
    )
    assert body.penalty == 1
    rolled = roll_reaction(body.attack, body.defence, seeded_rng("p"), body.rules, body.penalty)
    assert rolled.defence is not None and rolled.defence.target == 4
    assert rolled.hit_odds == hit_odds(ActionSpec(ability=8), ActionSpec(ability=5, modifier=-1))


def test_in_an_ambush_only_the_ambushers_roll_initiative() -> None:
    """'In an ambush situation only the ambushers have an initiative roll in the first
    round'; 'the success rate of the ambusher is everyone's penalty'."""
    people = [Combatant(name="A", wits=9, initiative=3), Combatant(name="B", wits=4)]
    result = roll_initiatives(people, seeded_rng("amb"), ambushers=["A"])
    assert [r.name for r in result.rolls] == ["A"] and result.order == [["A"]]
    assert result.penalty == max(0, result.rolls[0].success_rate)
    with pytest.raises(UnknownCombatant):
        roll_initiatives(people, seeded_rng("amb"), ambushers=["C"])


def test_haze_rules_take_one_spelling_snake_case() -> None:
    """Table settings (docs/RULES.md (Haze)) are snake_case, as every REST body; GraphQL's
    HazeRulesInput is camelCased by the generator, never by the model (issue 13)."""
    assert HazeRules.model_validate({"reaction_tie": "defender"}).reaction_tie == "defender"
    with pytest.raises(ValidationError):
        HazeRules.model_validate({"reactionTie": "defender"})
