"""Sigil generator and spell costs."""

from __future__ import annotations

import pytest

from services.dice import seeded_rng
from services.mazerats import RuleViolation
from services.mazerats.magic import TABLES, Part, Realm, generate_sigil, generate_sigils
from services.mazerats.spells import Reach, SpellRequest, cast, spell_cost, tier
from services.mazerats.tables import magic as t
from services.mazerats.tables.d66 import d66_index


def test_every_magic_table_has_thirty_six_slots() -> None:
    """'Corporeal Effects ... Ethereal Forms': six tables of 36 (ethereal effects print 35)."""
    assert all(len(table) == 36 for table in TABLES.values())
    assert t.ETHEREAL_EFFECTS.count(t.MISSING) == 1
    assert t.ETHEREAL_EFFECTS[d66_index(6, 6)] == t.MISSING
    assert "Revolting" in t.ETHEREAL_EFFECTS
    assert t.ETHEREAL_ELEMENTS.count("Plague") == 2


def test_a_sigil_combines_an_effect_or_element_with_a_form() -> None:
    """'The best way to do this is to combine an effect or element with a form'"""
    for seed in map(str, range(40)):
        sigil = generate_sigil(seeded_rng(seed))
        first, form = sigil.rolls
        assert first.entry in TABLES[(sigil.realm, sigil.part.value)]
        assert form.entry in TABLES[(sigil.realm, "form")]
        assert sigil.name == f"{first.entry} {form.entry}"
        assert TABLES[(sigil.realm, sigil.part.value)][d66_index(*first.dice)] == first.entry


def test_sigils_are_reproducible_and_can_be_pinned_to_a_realm_and_part() -> None:
    """'the GM generates the several sigils offered by the shop, using the charts'"""
    a = generate_sigils(seeded_rng("shop"), 5, Realm.ETHEREAL, Part.ELEMENT)
    assert a == generate_sigils(seeded_rng("shop"), 5, Realm.ETHEREAL, Part.ELEMENT)
    assert all(s.rolls[0].entry in t.ETHEREAL_ELEMENTS for s in a)
    assert all(s.rolls[1].entry in t.ETHEREAL_FORMS for s in a)


def test_spell_cost_adds_one_hp_per_modifier() -> None:
    """'(+1 HP) Increase range ... (+1 HP) Add an additional target ... (+1 HP) Spell target
    may not make a save to resist.'"""
    spell = SpellRequest(
        base=2,
        reach_steps=2,
        extra_targets=1,
        duration_steps=1,
        damage_steps=1,
        base_damage=3,
        extra_effects=1,
        no_save=True,
    )
    cost = spell_cost(spell)
    assert cost.cost == 2 + 2 + 1 + 1 + 1 + 1 + 1
    assert cost.reach is Reach.FAR
    assert cost.damage == 6
    assert cost.tier == "master"


def test_minor_major_and_master_spell_tiers() -> None:
    """'Minor spells typically cost between 1 and 4 HP, major spells between 5 and 8 HP,
    and master spells between 9 and 12.'"""
    assert [tier(c) for c in (1, 4, 5, 8, 9, 12)] == [
        "minor", "minor", "major", "major", "master", "master",
    ]  # fmt: skip
    assert not spell_cost(SpellRequest(base=12, extra_targets=1)).within_guidelines


def test_range_stops_at_distant() -> None:
    """'Increase range or area of effect of the spell by one step, (Close > Nearby > Far >
    Distant).'"""
    with pytest.raises(RuleViolation) as err:
        spell_cost(SpellRequest(reach=Reach.FAR, reach_steps=2))
    assert err.value.code == "range_past_distant"


def test_a_lower_cost_risks_a_corruption_will_save() -> None:
    """'ask for a lower cost if they risk a corruption vs. WIL save.'"""
    cost = spell_cost(SpellRequest(base=5, corruption_discount=2))
    assert cost.cost == 3 and cost.corruption_save
    for seed in map(str, range(20)):
        casting = cast(seeded_rng(seed), hp=6, price=cost, will=1)
        assert casting.hp == 3
        assert casting.corruption_save is not None
        assert casting.corrupted == (not casting.corruption_save.success)


def test_the_breakdown_adds_up_to_the_cost_when_the_discount_goes_below_one() -> None:
    for base, discount in ((5, 2), (2, 1), (1, 3), (2, 12)):
        cost = spell_cost(SpellRequest(base=base, corruption_discount=discount))
        assert cost.cost == max(1, base - discount)
        assert sum(dict(cost.breakdown).values()) == cost.cost
        assert cost.breakdown.minimum == max(0, 1 - (base - discount))


def test_casting_loses_hp_equal_to_the_cost_and_zero_is_death() -> None:
    """'To cast a spell, lose HP equal to the cost of the effect you want to create.'"""
    casting = cast(seeded_rng("c"), hp=4, price=spell_cost(SpellRequest(base=4)))
    assert (casting.hp, casting.dead, casting.corruption_save) == (0, True, None)


def test_no_spell_heals_hp() -> None:
    """'Magic can never heal HP.'"""
    with pytest.raises(RuleViolation) as err:
        spell_cost(SpellRequest(heals_hp=True))
    assert err.value.code == "magic_cannot_heal"
