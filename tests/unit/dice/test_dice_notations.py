"""Issue 19's dice notations end to end: parse, roll, per-die output, exact odds, renderings.

Each test quotes the notation it pins from the issue ("Dice notation") or docs/DICE.md.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from services.dice import (
    DiceError,
    Limits,
    parse,
    probability,
    render_dice_so_nice,
    render_foundry,
    roll,
    seeded_rng,
)
from services.dice.ast import formula
from tests.unit.dice.test_dice_roller import Scripted, faces


def refused(text: str, code: str, limits: Limits | None = None) -> DiceError:
    with pytest.raises(DiceError) as info:
        if limits is None:
            probability(text)
        else:
            probability(text, limits)
    assert info.value.code == code, info.value
    return info.value


# -- Fate dice ---------------------------------------------------------------------------


def test_fate_dice_show_minus_blank_plus() -> None:
    """ "Fate dice `dF` (`4dF`, faces -1,0,+1)." """
    r = roll("4dF", Scripted(1, 2, 3, 3))
    assert [d.face for d in r.dice] == [-1, 0, 1, 1] and r.total == 1
    assert all(d.sides == 3 for d in r.dice)
    assert formula(parse("4df").root) == "4dF"
    report = probability("4dF")
    assert (report.p(4), report.p(0)) == (Fraction(1, 81), Fraction(19, 81))
    assert render_foundry(r)["terms"][0]["class"] == "FateDie"
    dsn = render_dice_so_nice(r)["throws"][0]["dice"]
    assert [(d["type"], d["result"], d["resultLabel"]) for d in dsn][:3] == [
        ("df", -1, "-"),
        ("df", 0, " "),
        ("df", 1, "+"),
    ]


def test_fate_dice_do_not_explode() -> None:
    """Fate, custom and d66t dice have no highest face to explode on (docs/DICE.md)."""
    refused("4dF!", "invalid_explosion")


# -- Dice groups ---------------------------------------------------------------------------


def test_a_dice_group_keeps_the_best_item_total() -> None:
    """ "Dice groups with keep and drop: `{1d20+5, 1d20+3}kh1`." """
    r = roll("{1d20+5, 1d20+3}kh1", Scripted(10, 15))
    assert r.total == 18
    assert [(d.face, d.active) for d in r.dice] == [(10, False), (15, True)]
    assert faces(r)[0][2] == ("dropped",)
    tree = r.to_dict()["tree"]
    assert tree["type"] == "dice_group" and [i["kept"] for i in tree["items"]] == [False, True]
    pool = render_foundry(r)["terms"][0]
    assert pool["class"] == "PoolTerm" and pool["modifiers"] == ["kh1"]
    assert [x["active"] for x in pool["results"]] == [False, True]
    # P(max(d20+5, d20+3) >= 25): only the first item can reach 25, on a 20.
    report = probability("{1d20+5, 1d20+3}kh1 >= 25")
    assert report.success == Fraction(1, 20)


@pytest.mark.parametrize(
    ("text", "scripted", "total"),
    [
        ("{1d6, 1d6, 1d6}kl1", (4, 2, 5), 2),
        ("{1d6, 1d6, 1d6}dh1", (4, 2, 5), 6),
        ("{1d6, 1d6, 1d6}dl1", (4, 2, 5), 9),
        ("{1d6, 1d6, 1d6}k2", (4, 2, 5), 9),
        ("{1d6, 3}", (4,), 7),
    ],
)
def test_dice_groups_spell_keep_and_drop_as_dice_do(
    text: str, scripted: tuple[int, ...], total: int
) -> None:
    """ "(also kl/dh/dl as the engine spells keep/drop elsewhere)" """
    assert roll(text, Scripted(*scripted)).total == total


def test_a_group_keep_matches_a_direct_count() -> None:
    """`{1d6, 1d6}kh1` is the better of two d6: P(6) = 11/36."""
    assert probability("{1d6, 1d6}kh1").p(6) == Fraction(11, 36)
    assert probability("{1d6, 1d6}kl1").p(1) == Fraction(11, 36)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("{4d6}kh1", "invalid_group"),  # Roll20 keeps single dice of a one-item group
        ("{1d6, 1d8}kh3", "invalid_keep"),
        ("{1d20, 1d20}kh1>=15", "ambiguous_notation"),  # Roll20 counts items that pass
        ("{1d20, 1d20}>15", "ambiguous_notation"),
        ("{1d6, 1d8}!", "syntax_error"),
        ("{1d6, 1d8", "syntax_error"),
    ],
)
def test_dice_groups_refuse_what_they_cannot_mean(text: str, code: str) -> None:
    refused(text, code)


def test_group_states_are_priced_before_work() -> None:
    """ "Every new notation: costed before work by the existing cost limits." """
    refused("{100d100, 100d100, 100d100}kh2", "distribution_too_large")


# -- Labels ----------------------------------------------------------------------------------


def test_labels_reach_every_die_and_foundry_flavor() -> None:
    """ "Labels: `1d8[fire] + 2d6[cold]`, carried into the per-die output and into
    Foundry's flavor." """
    r = roll("1d8[fire] + 2d6[cold] + 2[str]", seeded_rng("labels"))
    assert [d.label for d in r.dice] == ["fire", "cold", "cold"]
    assert [d["label"] for d in r.to_dict()["dice"]] == ["fire", "cold", "cold"]
    terms = render_foundry(r)["terms"]
    assert [t["options"].get("flavor") for t in terms if "number" in t] == ["fire", "cold", "str"]
    assert render_foundry(r)["formula"] == "1d8[fire] + 2d6[cold] + 2[str]"
    assert roll("2d6 [cold]", Scripted(1, 2)).dice[0].label == "cold"
    assert probability("1d8[fire] + 2d6[cold]").dist == probability("1d8 + 2d6").dist


@pytest.mark.parametrize("text", ["1d8[fire", "1d8[]", "1d8[" + "x" * 65 + "]", "1d8[a[b]]"])
def test_bad_labels_are_syntax_errors(text: str) -> None:
    refused(text, "syntax_error")


# -- Per-die minimum and maximum ------------------------------------------------------------


def test_per_die_minimum_and_maximum_clamp_each_value_and_keep_the_face() -> None:
    """ "Per-die minimum and maximum: `4d6min2`, `4d6max5` and the `mi`/`ma` spellings." """
    r = roll("4d6min2", Scripted(1, 2, 3, 6))
    assert faces(r) == [(1, 2, ("clamped",)), (2, 2, ()), (3, 3, ()), (6, 6, ())]
    assert r.total == 13
    assert roll("4d6max5", Scripted(1, 2, 3, 6)).total == 11
    assert formula(parse("4d6mi2ma5").root) == "4d6min2max5"
    assert probability("4d6min2").p(8) == Fraction(2**4, 6**4)
    assert probability("1d6max5").p(5) == Fraction(2, 6)
    assert render_foundry(r)["terms"][0]["modifiers"] == ["min2"]


def test_a_clamped_exploding_die_explodes_on_its_face() -> None:
    """docs/DICE.md: explosions trigger on the face, the minimum/maximum shapes the value."""
    r = roll("1d6max4!", Scripted(6, 2))
    assert faces(r) == [(6, 4, ("exploded", "clamped")), (2, 2, ())]


def test_a_minimum_above_the_maximum_is_refused() -> None:
    refused("4d6min5max2", "invalid_dice")


# -- cs / cf ---------------------------------------------------------------------------------


def test_cs_is_success_counting_and_cf_with_it_subtracts_failures() -> None:
    """ "Success and failure counting `cs`/`cf` (Foundry spelling, e.g. `10d10cs>=8`,
    `10d10cs>=8cf1`), alongside whatever success counting exists already." """
    assert probability("10d10cs>=8").dist == probability("10d10>=8").dist
    assert probability("10d10cs>=8cf1").dist == probability("10d10>=8f1").dist
    r = roll("4d10cs>=8cf1", Scripted(9, 1, 1, 5))
    assert r.total == 1 - 2


def test_cf_alone_counts_failures_up_as_foundry_does() -> None:
    """docs/DICE.md: `10d10cf<3` counts the dice under 3 (Foundry), unlike `f<3` (−1 each)."""
    assert roll("4d10cf<3", Scripted(1, 2, 3, 9)).total == 2
    assert roll("4d10f<3", Scripted(1, 2, 3, 9)).total == -2
    assert probability("2d10cf<3").p(2) == Fraction(4, 100)
    mods = render_foundry(roll("4d10cf<3", seeded_rng("x")))["terms"][0]["modifiers"]
    assert mods == ["cf<3"]


# -- Custom faces and d66 -------------------------------------------------------------------


def test_custom_faces_are_equally_likely_faces_with_their_values() -> None:
    """ "Custom faces `d{1,1,2,3}`." """
    report = probability("d{1,1,2,3}")
    assert (report.p(1), report.p(2), report.p(3)) == (
        Fraction(1, 2),
        Fraction(1, 4),
        Fraction(1, 4),
    )
    r = roll("2d{1,1,2,3}", Scripted(2, 4))
    assert [d.face for d in r.dice] == [1, 3] and r.total == 4
    assert probability("d{1..66}").p(66) == Fraction(1, 66)
    assert probability("d{-2..2}kh1").dist.pmf == probability("1d5 - 3").dist.pmf
    custom = render_foundry(r)["terms"][0]["options"]["daedalus"]
    assert custom == {"die": "{1,1,2,3}", "faces": [1, 1, 2, 3]}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("d{5}", "invalid_dice"),
        ("d{1..10001}", "too_many_sides"),
        ("d{3..1}", "syntax_error"),
        ("d{1,2", "syntax_error"),
        ("d{1,2}!", "invalid_explosion"),
        ("d{1,1,2}r<=2", "infinite_reroll"),
    ],
)
def test_bad_custom_faces_are_refused(text: str, code: str) -> None:
    refused(text, code)


def test_plain_d66_is_refused_with_both_explicit_spellings() -> None:
    """ "plain `d66` must never silently be a 66-sided die." """
    for text in ("d66", "2d66+1", "1d66!"):
        error = refused(text, "ambiguous_notation")
        assert "d66t" in error.message and "d{1..66}" in error.message
        assert error.expected == ["d66t", "d{1..66}"]


@pytest.mark.parametrize(
    ("text", "code", "position"),
    [
        ("d66", "ambiguous_notation", 0),
        ("1d6+d66", "ambiguous_notation", 4),
        ("1d20000", "too_many_sides", 0),
        ("1d6+d0", "invalid_dice", 4),
    ],
)
def test_a_refused_die_reports_the_position_its_message_names(
    text: str, code: str, position: int
) -> None:
    """The `position` field and the message agree, 0-based (the term's start), as every
    other code's do; `d66`'s field used to point one past it, at the sides."""
    error = refused(text, code)
    assert error.position == position
    assert f"at position {position}" in error.message


def test_d66t_reads_a_tens_die_and_a_units_die() -> None:
    """ "`d66` as the tables convention (a tens die and a units die, values 11..66)." """
    r = roll("d66t", Scripted(14))  # the 14th of 36 faces: tens 3, units 2
    assert r.total == 32 and r.dice[0].face == 32
    dsn = render_dice_so_nice(r)["throws"][0]["dice"]
    assert [(d["type"], d["result"]) for d in dsn] == [("d6", 3), ("d6", 2)]
    assert probability("d66t").p(11) == Fraction(1, 36)
    assert probability("d66t").p(17) == 0


# -- Functions ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "total"),
    [
        ("floor(7/2)", 3),
        ("ceil(7/2)", 4),
        ("round(5/2)", 3),  # halves go up, as JavaScript's Math.round (Roll20, Foundry)
        ("round(-5/2)", -2),
        ("round(7/3)", 2),
        ("floor(-7/2)", -4),
        ("ceil(-7/2)", -3),
        ("abs(3 - 10)", 7),
        ("ceil(1/2 + 1/2)", 1),  # exact inside: 1/2 + 1/2 is 1, not 0 + 0
        ("ceil(1/2) + 1/2", 1),  # outside a rounding function, / stays floor division
        ("abs(-7/2)", 4),  # abs does not make division exact: -7/2 is -4
    ],
)
def test_rounding_functions_divide_exactly_inside(text: str, total: int) -> None:
    """ "Functions `floor`, `ceil`, `round`, `abs` in expressions." """
    assert roll(text, Scripted()).total == total
    assert probability(text).p(total) == 1


def test_functions_take_dice_and_keep_their_tree() -> None:
    r = roll("ceil(1d6/2) + abs(1d4 - 3)", Scripted(5, 1))
    assert r.total == 3 + 2
    tree = r.to_dict()["tree"]
    assert tree["first"]["fn"] == "ceil" and tree["first"]["args"][0]["value"] == "5/2"
    json.dumps(render_foundry(r))
    assert probability("ceil(1d6/2)").dist.pmf == {1: 2, 2: 2, 3: 2}


@pytest.mark.parametrize("text", ["floor(1, 2)", "abs()", "round 2", "ceil(1d6"])
def test_functions_refuse_bad_calls(text: str) -> None:
    refused(text, "syntax_error")


def test_rational_arguments_are_priced_before_work() -> None:
    refused("floor(20d1000 / 20d1000)", "distribution_too_large")


# -- Exploding pools with keep ----------------------------------------------------------------


def test_keep_over_an_exploding_pool_is_exact() -> None:
    """ "Exact odds for an exploding pool with keep (`4d6!kh3`)."

    The three kept units are all 6 exactly when at least three sixes are thrown; each
    die throws a geometric number of sixes, so their total S is negative binomial:
    P(S = s) = C(s + 3, 3) (1/6)^s (5/6)^4.
    """
    report = probability("4d6!kh3")
    assert report.dist.tail == 0
    none, one, two = (Fraction(5, 6) ** 4 * Fraction(c, 6**s) for s, c in ((0, 1), (1, 4), (2, 10)))
    assert report.p(18) == 1 - none - one - two
    assert report.p(3) == Fraction(1, 6**4)
    assert report.dist.hi == 18


def test_dropping_from_an_exploding_pool_still_has_no_exact_distribution() -> None:
    """docs/DICE.md: how many dice `dl` keeps from a growing pool depends on the explosions."""
    refused("4d6!dl1", "distribution_unsupported")
    assert roll("4d6!dl1", Scripted(6, 1, 2, 3, 4)).total == 6 + 2 + 3 + 4


def test_exploding_pool_keeps_are_priced_before_work() -> None:
    refused("50d20!kh25", "distribution_too_large")


# -- Ambiguity --------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["4d6k>3", "4d6kh>=3", "4d6kl<3", "4d6dl=1", "{1d6, 1d8}k>3"])
def test_keep_followed_by_a_comparison_is_refused_as_ambiguous(text: str) -> None:
    """ "`4d6k>3` means keep dice above 3 in d20 but keep-highest-then-count here: refuse
    ambiguous spellings with a clear error (stable code) whose message names the two
    readings and the unambiguous spellings." """
    error = refused(text, "ambiguous_notation")
    assert "keep the dice above" in error.message
    assert "keep the highest" in error.message
    assert "4d6kh1>3" in error.message and "4d6>3" in error.message


def test_the_unambiguous_spelling_keeps_then_counts() -> None:
    r = roll("4d6kh1>3", Scripted(2, 5, 1, 3))
    assert r.total == 1 and [d.active for d in r.dice] == [False, True, False, False]
