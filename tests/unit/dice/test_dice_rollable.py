"""`check_rollable`: an expression kept to be rolled later is refused if a roll can fail.

A labyrinth profile or table expression is rolled in play; one that divides by a die
that can show 0 used to be accepted and then stop the table with `division_by_zero` on
some rolls. The test is the one `/v1/dice/probability` makes (a divisor whose exact
distribution holds 0), so the two must agree wherever a distribution can be computed.
"""

from __future__ import annotations

import pytest

from services.dice import DiceError, SystemRng, check_rollable, probability, roll, seeded_rng


def refusal(text: str) -> DiceError:
    with pytest.raises(DiceError) as refused:
        check_rollable(text)
    return refused.value


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("1d20/(1d2-1)", 5),  # 0 on half the rolls
        ("1d6/0", 4),  # 0 on every roll
        ("1d20/(1d6!-7)", 5),  # a six explodes to 7..12 and may leave 0
        ("ceil(1d6/(1d3-2))", 9),  # exact division still cannot divide by 0
        ("1d6/(1d2/2)", 4),  # floor division: 1d2/2 is 0 on a 1
        ("{1d6, 1d6/(1d2-1)}kh1", 10),  # inside a dice group
        ("2d6 + 1d6/(1d6-1d6)", 10),
        ("1d6*(1d2-1)/(1d2-1)", 12),  # the divisor, not the dividend's factor
        ("1d20/(500d10000-500)", 5),  # too large to enumerate: its bounds hold 0
    ],
)
def test_a_divisor_that_can_be_zero_is_refused_where_it_stands(text: str, position: int) -> None:
    error = refusal(text)
    assert (error.code, error.position) == ("division_by_zero", position)
    assert f"position {position}" in error.message and "max(1, " in error.message


@pytest.mark.parametrize(
    "text",
    [
        "1d20+5",
        "1d20/2",
        "floor(1d6/(1d2/2))",  # exact inside floor: 1d2/2 is 1/2 or 1, never 0
        "1d6/(2*1d2-3)",  # -1 or 1: its bounds hold 0, its values do not
        "1d20/1d6!",
        "1d20/(1d6!-6)",  # 1d6! - 6 is -5..-1 or at least 1
        "1d20/(500d10000)",  # too large to enumerate: its bounds exclude 0
        "1d20/(150d500+1)",  # (enumerating it took seconds: bounds come first)
        "floor(1d20/(500d10000+1))",  # exact division by a divisor with none of its own
        "1000d10000/3",  # a whole distribution too large to compute, a constant divisor
        "2d6 >= 1d20/2",
    ],
)
def test_a_divisor_that_cannot_be_zero_is_accepted(text: str) -> None:
    assert check_rollable(text).source == text


@pytest.mark.parametrize(
    "text",
    [
        "1d20/(1d2-1)",
        "1d20/(1d6!-7)",
        "ceil(1d6/(1d3-2))",
        "1d6/(1d2/2)",
        "floor(1d6/(1d2/2))",
        "1d6/(2*1d2-3)",
        "1d20/1d6!",
        "{1d6, 1d6/(1d2-1)}kh1",
        "min(1d6, 3)/(abs(1d4-2))",
    ],
)
def test_the_verdict_is_the_probability_analysis_verdict(text: str) -> None:
    try:
        probability(text)
    except DiceError as exc:
        assert exc.code == "division_by_zero"
        assert refusal(text).code == "division_by_zero"
    else:
        check_rollable(text)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("999999999999*999999999999*999999999999", "value_too_large"),
        ("600d6+600d6", "too_many_dice"),
    ],
)
def test_what_the_roller_refuses_on_every_roll_is_refused(text: str, code: str) -> None:
    with pytest.raises(DiceError) as rolled:
        roll(text, SystemRng())
    assert rolled.value.code == code
    assert refusal(text).code == code


def test_an_accepted_expression_never_fails_to_roll() -> None:
    rng = seeded_rng("rollable")
    for text in ("1d20/(2*1d2-3)", "floor(1d6/(1d2/2))", "1d20/(1d6!-6)"):
        check_rollable(text)
        for _ in range(500):
            roll(text, rng)


def test_the_check_enumerates_only_divisors_its_bounds_cannot_clear_and_few_of_those() -> None:
    # Checked as a request is read, unpriced: a divisor whose bounds hold 0 is enumerated
    # on a small budget, and one past it is refused rather than paid for.
    assert refusal("1d20/(20d20-30)").message.endswith(
        "can be 0, and a roll dividing by 0 fails; write a divisor that cannot be 0 "
        "(max(1, ...), for one)"
    )
    assert "too many values to check" in refusal("1d20/(400d400-1000)").message
