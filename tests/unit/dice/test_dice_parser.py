"""The notation: every form the rules texts need parses; errors say where and what."""

from __future__ import annotations

import pytest

from services.dice import DiceError, DiceSyntaxError, parse
from services.dice.ast import Check, Dice, Sum, formula


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("1d10!+2 >= 10", "1d10! + 2 >= 10"),  # The Maze: exploding ability die + modifier
        ("2d6+1 >= 9", "2d6 + 1 >= 9"),  # Maze Rats save
        ("1d10 <= 8", "1d10 <= 8"),  # Haze roll-under
        ("4d10!", "4d10!"),  # Haze open-ended effect dice
        ("max(0, 2d6+1-6)", "max(0, 2d6 + 1 - 6)"),  # Maze Rats damage over AC
        ("d20", "1d20"),
        ("d%", "1d%"),
        ("4d6kh3", "4d6kh3"),
        ("4d6k3", "4d6kh3"),
        ("2d20kl1", "2d20kl1"),
        ("4d6dl1", "4d6dl1"),
        ("5d6dh2", "5d6dh2"),
        ("3d6r<=2", "3d6r<=2"),
        ("3d6r1", "3d6r=1"),
        ("3d6ro<=2", "3d6ro<=2"),
        ("1d6!>=5", "1d6!>=5"),
        ("1d6!=6", "1d6!=6"),
        ("2d6!!", "2d6!!"),
        ("2d6!p", "2d6!p"),
        ("10d10>=8", "10d10>=8"),
        ("10d10>=8!", "10d10>=8!"),
        ("4d6r<=1>=5f=1!kh3", "4d6r<=1>=5f=1!kh3"),
        ("6d6>=5f<=1", "6d6>=5f<=1"),
        ("-(1d6 + 2) * 3 / 2", "-(1d6 + 2) * 3 / 2"),
        ("1d20+3 >= 13", "1d20 + 3 >= 13"),
        ("1d20 > 1d20", "1d20 > 1d20"),
        ("1d6 = 3", "1d6 == 3"),
        ("min(1d6, 1d8, 3)", "min(1d6, 1d8, 3)"),
        ("  2 d6", None),
    ],
)
def test_the_notation_parses_to_its_canonical_form(text: str, canonical: str | None) -> None:
    if canonical is None:
        with pytest.raises(DiceSyntaxError):
            parse(text)
        return
    assert formula(parse(text).root) == canonical
    assert formula(parse(canonical).root) == canonical


def test_a_comparison_glued_to_dice_counts_per_die_but_spaced_compares_the_total() -> None:
    per_die = parse("2d6>=5").root
    total = parse("2d6 >= 5").root
    assert isinstance(per_die, Dice) and per_die.success is not None
    assert isinstance(total, Check) and isinstance(total.left, Dice)
    assert total.left.success is None


def test_long_sums_are_flat_so_depth_comes_only_from_nesting() -> None:
    root = parse("+".join(["1d6"] * 200)).root
    assert isinstance(root, Sum) and len(root.rest) == 199


@pytest.mark.parametrize(
    ("text", "position", "expected_fragment"),
    [
        ("2d6 +", 5, "a number"),
        ("2d6 + * 3", 6, "a number"),
        ("(1d6", 4, "')'"),
        ("1d6)", 3, "end of expression"),
        ("max 1d6", 4, "'(' after max"),
        ("1d6 >= 3 >= 2", 9, "end of expression"),
        ("2x6", 1, "an operator"),
        ("1d6!>=", 6, "explosion threshold"),
    ],
)
def test_syntax_errors_carry_the_position_and_what_was_expected(
    text: str, position: int, expected_fragment: str
) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        parse(text)
    err = info.value
    assert err.code == "syntax_error"
    assert err.position == position
    assert err.expected is not None
    assert any(expected_fragment in e for e in err.expected), err.expected
    assert f"position {position}" in err.message


@pytest.mark.parametrize(
    ("text", "position", "written"),
    [
        ("1D20", 1, "1d20"),
        ("D6", 0, "d6"),
        ("2d6+1D4", 5, "2d6+1d4"),
        ("max(1D20, 1D20) + 2", 5, "max(1d20, 1d20) + 2"),
        ("4DF", 1, "4dF"),
        ("DD6", 0, "1d20"),  # no die to lower: the example
    ],
)
def test_an_uppercase_d_is_refused_with_a_hint(text: str, position: int, written: str) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        parse(text)
    assert info.value.position == position
    assert f"(dice are written with a lowercase d: {written})" in info.value.message
    if written != "1d20":
        parse(written)  # the hint's spelling is a valid roll


def test_no_other_syntax_error_speaks_of_the_lowercase_d() -> None:
    with pytest.raises(DiceSyntaxError) as info:
        parse("2x6")
    assert "lowercase" not in info.value.message


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("1d1!", "invalid_dice"),
        ("1d1", "invalid_dice"),
        ("1d0", "invalid_dice"),
        ("1d6!>=1", "infinite_explosion"),
        ("1d6r<=3!>=4", "infinite_explosion"),
        ("1d100!>=2", "explosion_limit"),
        ("1d6r<=6", "infinite_reroll"),
        ("1d100r<=99", "reroll_limit"),
        ("999999999d999999999", "too_many_dice"),
        ("1001d6", "too_many_dice"),
        ("1d10001", "too_many_sides"),
        ("9999999999999999", "number_too_large"),
        ("(" * 5000 + "1" + ")" * 5000, "expression_too_long"),
        ("+".join(["1"] * 100_000), "expression_too_long"),
        ("(" * 40 + "1" + ")" * 40, "expression_too_deep"),
        ("-" * 900 + "1", None),
        ("2d6kh3", "invalid_keep"),
        ("2d6!!>=10", "invalid_explosion"),
        ("1d6kh1kh1", "syntax_error"),
    ],
)
def test_abusive_or_meaningless_expressions_are_refused_with_a_stable_code(
    text: str, code: str | None
) -> None:
    if code is None:
        assert parse(text).root is not None
        return
    with pytest.raises(DiceError) as info:
        parse(text)
    assert info.value.code == code
    assert info.value.message


def test_errors_serialise_with_code_message_and_position() -> None:
    with pytest.raises(DiceError) as info:
        parse("2d6 + )")
    d = info.value.to_dict()
    assert d["code"] == "syntax_error" and d["position"] == 6 and d["expected"]
